import Analysis
import TestSupport
import Testing

/// The rules METRICS.md version 2 added to episodes, each worked out by hand.
@Suite struct EpisodeRulesV2Tests {
    let t0 = T.march1
    let month = 31 * T.day

    func build(_ events: [NotificationEvent], asOf: Int64 = T.march1 + 200 * T.day) -> SubscriptionEpisodes {
        EpisodeBuilder(options: .init(asOf: asOf)).build(events)
    }

    func dataset(_ events: [NotificationEvent], asOf: Int64 = T.march1 + 200 * T.day) -> EpisodeDataset {
        EpisodeBuilder(options: .init(asOf: asOf)).dataset(events)
    }

    /// The paid renewal before the failure: paid_through = t0.
    var renewalToT0: NotificationEvent {
        event("r0", "DID_RENEW", at: t0 - month + T.minute, expires: t0, purchase: t0 - month, price: 9990)
    }

    // MARK: - Late and stale failure notices

    @Test func failureNoticeAfterItsOwnRecoveryIsOneRecoveredEpisode() {
        // The recovery (t0 + 2 days) is delivered first: with no episode open it is an orphan for now, and it
        // moves paid_through to t0 + 2 days + a month. The failure notice for the period ending at t0 comes three
        // hours later: its expiresDate t0 < paid_through, so it is stale — unless it pairs with the orphan
        // recovery, whose purchaseDate t0 + 2 days lies in [t0, t0 + 61 days). It does.
        let result = build([
            renewalToT0,
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 2 * T.day + T.minute, expires: t0 + 2 * T.day + month,
                purchase: t0 + 2 * T.day, price: 9990, currency: "USD"),
            event(
                "f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + 2 * T.day + 3 * T.hour, expires: t0,
                grace: t0 + 16 * T.day, price: 9990, currency: "USD"),
        ])
        let expected = Episode(
            subscription: "S1", sequence: 1, productId: "monthly", storefront: "USA", start: t0, hasGrace: true,
            graceEnd: t0 + 16 * T.day, end: t0 + 2 * T.day, outcome: .recovered, recoveryPrice: 9990,
            recoveryCurrency: "USD", recoveredBy: .retry, stakePrice: 9990, stakeCurrency: "USD",
            openingNotificationUUID: "f1", closingNotificationUUID: "r1", openingPrice: 9990)
        #expect(result.episodes == [expected])
        #expect(result.episodes[0].isSavedInGrace)
        #expect(result.dataQuality == DataQualityCounts(lateFailureNotice: 1))
    }

    @Test func lateCopyOfARecoveredPeriodsNoticeOpensNothing() {
        // On time: fail, recover. Then a copy of the failure notice (another UUID) for the same period arrives:
        // its expiresDate t0 is before paid_through, the recovery was no orphan, and an episode already started
        // at t0. No phantom episode; the copy is stale.
        let result = build([
            renewalToT0,
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 2 * T.day, expires: t0 + 2 * T.day + month,
                purchase: t0 + 2 * T.day),
            event("f1-late", "DID_FAIL_TO_RENEW", at: t0 + 2 * T.day + 5 * T.hour, expires: t0),
        ])
        #expect(result.episodes.map(\.outcome) == [.recovered])
        #expect(result.episodes.map(\.openingNotificationUUID) == ["f1"])
        #expect(result.dataQuality == DataQualityCounts(staleFailureNotice: 1))
    }

    @Test func noticeWithoutAMatchingOrphanIsStale() {
        // The orphan recovery came 61 days or more after the notice's period end: too late to be its recovery.
        let result = build([
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 61 * T.day + T.minute, expires: t0 + 92 * T.day,
                purchase: t0 + 61 * T.day),
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + 61 * T.day + T.hour, expires: t0),
        ])
        #expect(result.episodes.isEmpty)
        #expect(result.dataQuality == DataQualityCounts(orphanDidRenewBillingRecovery: 1, staleFailureNotice: 1))
    }

    @Test func orphanRecoveryBeforeThePeriodEndDoesNotPair() {
        let result = build([
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 - T.hour, expires: t0 + month, purchase: t0 - 2 * T.hour),
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.hour, expires: t0),
        ])
        #expect(result.episodes.isEmpty)
        #expect(result.dataQuality == DataQualityCounts(orphanDidRenewBillingRecovery: 1, staleFailureNotice: 1))
    }

    @Test func aRecoveryPairsAtMostOnce() {
        // Two late notices for different periods, one orphan recovery in both windows: the first notice takes it.
        let result = build([
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 40 * T.day, expires: t0 + 40 * T.day + month,
                purchase: t0 + 40 * T.day),
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + 40 * T.day + T.hour, expires: t0),
            event("f2", "DID_FAIL_TO_RENEW", at: t0 + 40 * T.day + 2 * T.hour, expires: t0 + 10 * T.day),
        ])
        #expect(result.episodes.map(\.openingNotificationUUID) == ["f1"])
        #expect(result.episodes.map(\.end) == [t0 + 40 * T.day])
        #expect(result.dataQuality == DataQualityCounts(staleFailureNotice: 1, lateFailureNotice: 1))
    }

    @Test func pairedEpisodeTakesItsPlaceInTheSequence() {
        // A later episode opened and closed before the late notice of an earlier period arrived: the episodes
        // are numbered by start, so the paired one is 1.
        let result = build([
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 3 * T.day, expires: t0 + 3 * T.day + month,
                purchase: t0 + 3 * T.day),
            event("f2", "DID_FAIL_TO_RENEW", at: t0 + 3 * T.day + month, expires: t0 + 3 * T.day + month),
            event("e2", "EXPIRED", "VOLUNTARY", at: t0 + 10 * T.day + month),
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + 11 * T.day + month, expires: t0),
        ])
        #expect(result.episodes.map(\.openingNotificationUUID) == ["f1", "f2"])
        #expect(result.episodes.map(\.sequence) == [1, 2])
        #expect(result.episodes.map(\.outcome) == [.recovered, .cancelled])
    }

    @Test func paidThroughMovesOnlyWithPaidPeriodNotifications() {
        // A refund's and a failure notice's own expiresDate do not make a period paid.
        let result = build([
            event("x1", "REFUND", at: t0 - T.day, expires: t0 + month),
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("x2", "EXPIRED", "VOLUNTARY", at: t0 + T.day),
            event("f2", "DID_FAIL_TO_RENEW", at: t0 + 2 * T.day, expires: t0 - T.day),
        ])
        // Both open episodes; numbered by start, so f2's (t0 − 1 day) comes first.
        #expect(result.episodes.map(\.openingNotificationUUID) == ["f2", "f1"])
        #expect(result.dataQuality.staleFailureNotice == 0)
    }

    @Test(arguments: ["SUBSCRIBED", "OFFER_REDEEMED", "DID_CHANGE_RENEWAL_PREF"])
    func paidPurchasesMovePaidThrough(type: String) {
        let result = build([
            event("p1", type, "UPGRADE", at: t0 - T.day, expires: t0 + month, purchase: t0 - T.day, price: 1),
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
        ])
        #expect(result.episodes.isEmpty)
        #expect(result.dataQuality.staleFailureNotice == 1)
    }

    // MARK: - New paid purchases during retry

    @Test func upgradeDuringRetryRecoversTheEpisode() {
        let result = build([
            event(
                "f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, renewalPrice: 9990, renewalCurrency: "EUR"),
            event(
                "u1", "DID_CHANGE_RENEWAL_PREF", "UPGRADE", at: t0 + 5 * T.day + T.minute,
                expires: t0 + 5 * T.day + 365 * T.day,
                purchase: t0 + 5 * T.day, product: "annual", price: 59990, currency: "EUR"),
            // A DID_RENEW afterwards is an ordinary renewal, not a recovery of this episode.
            event("r1", "DID_RENEW", at: t0 + 370 * T.day, purchase: t0 + 370 * T.day),
        ])
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, end: t0 + 5 * T.day,
            outcome: .recovered, recoveryPrice: 59990, recoveryCurrency: "EUR", recoveredBy: .newPurchase,
            stakePrice: 9990, stakeCurrency: "EUR", openingNotificationUUID: "f1", closingNotificationUUID: "u1")
        #expect(result.episodes == [expected])
        #expect(result.dataQuality == DataQualityCounts())
    }

    @Test(arguments: [("SUBSCRIBED", "RESUBSCRIBE"), ("SUBSCRIBED", "INITIAL_BUY"), ("OFFER_REDEEMED", "UPGRADE")])
    func repurchaseDuringRetryRecoversTheEpisode(type: String, subtype: String) {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 9990, currency: "USD"),
            event(
                "p1", type, subtype, at: t0 + 10 * T.day + T.minute, expires: t0 + 10 * T.day + month,
                purchase: t0 + 10 * T.day, price: 8990, currency: "USD"),
        ])
        #expect(result.episodes.map(\.outcome) == [.recovered])
        #expect(result.episodes.map(\.recoveredBy) == [.newPurchase])
        #expect(result.episodes.map(\.end) == [t0 + 10 * T.day])
        #expect(result.episodes.map(\.recoveryPrice) == [8990])
        // No renewalPrice on the opening notification: the stake is its transaction's price.
        #expect(result.episodes.map(\.stakePrice) == [9990])
    }

    @Test(
        arguments: [
            ("free purchase", Int64?.some(0), T.march1 + 10 * T.day, "UPGRADE"),
            ("no price", nil, T.march1 + 10 * T.day, "UPGRADE"),
            ("purchased at t0", 9990, T.march1, "UPGRADE"),
            ("purchased before t0", 9990, T.march1 - T.day, "UPGRADE"),
            ("a downgrade", 9990, T.march1 + 10 * T.day, "DOWNGRADE"),
        ] as [(String, Int64?, Int64, String)])
    func purchasesThatDoNotEndRetry(label: String, price: Int64?, purchase: Int64, subtype: String) {
        let type = subtype == "DOWNGRADE" ? "DID_CHANGE_RENEWAL_PREF" : "SUBSCRIBED"
        let result = build(
            [
                event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
                event("p1", type, subtype, at: t0 + 11 * T.day, purchase: purchase, price: price),
            ],
            asOf: t0 + 20 * T.day)
        #expect(result.episodes.map(\.outcome) == [.open], "\(label)")
    }

    // MARK: - The retry window

    @Test func missingExpiryIsInferredAtDaySixtyAtTheAsOfTime() {
        let events = [event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0)]
        let young = dataset(events, asOf: t0 + 61 * T.day - 1)
        #expect(young.episodes.map(\.outcome) == [.open])
        #expect(young.dataQuality.inferredExpiry == 0)

        let old = dataset(events, asOf: t0 + 61 * T.day)
        #expect(old.episodes.map(\.outcome) == [.expired])
        #expect(old.episodes.map(\.end) == [t0 + 60 * T.day])
        #expect(old.episodes.map(\.endInferred) == [true])
        #expect(old.episodes.map { $0.duration(asOf: old.asOf) } == [60 * T.day])
        #expect(old.dataQuality.inferredExpiry == 1)
    }

    @Test func recoveryAfterDaySixtyOneIsAnOrphan() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 61 * T.day + 1, expires: t0 + 92 * T.day,
                purchase: t0 + 61 * T.day),
        ])
        #expect(result.episodes.map(\.outcome) == [.expired])
        #expect(result.episodes.map(\.end) == [t0 + 60 * T.day])
        #expect(result.episodes.map(\.endInferred) == [true])
        #expect(result.episodes.map(\.recoveryPrice) == [nil])
        #expect(result.dataQuality == DataQualityCounts(orphanDidRenewBillingRecovery: 1))
    }

    @Test func recoverySignedExactlyAtDaySixtyOneStillCloses() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 61 * T.day, purchase: t0 + 60 * T.day + T.hour),
        ])
        #expect(result.episodes.map(\.outcome) == [.recovered])
        #expect(result.episodes.map(\.endInferred) == [false])
    }

    @Test func lateExpiryOfAnInferredEpisodeCountsNowhere() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("a1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", at: t0 + 62 * T.day),
            event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 63 * T.day),
            // Only the first one after the inferred end is its late closing notification.
            event("e2", "EXPIRED", "BILLING_RETRY", at: t0 + 64 * T.day),
        ])
        #expect(result.episodes.map(\.outcome) == [.expired])
        #expect(result.episodes.map(\.closingNotificationUUID) == [nil])
        #expect(result.dataQuality == DataQualityCounts(orphanExpiredBillingRetry: 1))
    }

    @Test func afterAnInferredEndANewFailureOpensAnEpisode() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("f2", "DID_FAIL_TO_RENEW", at: t0 + 70 * T.day, expires: t0 + 70 * T.day),
        ])
        #expect(result.episodes.map(\.outcome) == [.expired, .open])
        #expect(result.episodes.map(\.start) == [t0, t0 + 70 * T.day])
    }

    @Test func maturityIsSixtyOneDaysAfterTheStart() {
        let episode = Episode(subscription: "S1", start: t0, outcome: .open, openingNotificationUUID: "f1")
        #expect(!episode.isMature(asOf: t0 + 61 * T.day - 1))
        #expect(episode.isMature(asOf: t0 + 61 * T.day))
    }

    // MARK: - Grace without a date

    /// A dated grace episode of `product` with `days` of grace, in its own subscription.
    func datedGrace(_ id: String, product: String, days: Int64, bundle: String = "app") -> [NotificationEvent] {
        [
            event(
                id, "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, subscription: id, expires: t0,
                grace: t0 + days * T.day + T.hour, product: product, bundle: bundle),
            event(
                id + "-r", "DID_RENEW", "BILLING_RECOVERY", at: t0 + T.day, subscription: id, purchase: t0 + T.day,
                product: product, bundle: bundle),
        ]
    }

    func undated(_ id: String, product: String, bundle: String? = "app") -> [NotificationEvent] {
        [
            event(
                id, "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, subscription: id, expires: t0,
                product: product, bundle: bundle),
            event(
                id + "-r", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 5 * T.day, subscription: id,
                purchase: t0 + 5 * T.day, product: product, bundle: bundle),
        ]
    }

    @Test func undatedGraceTakesTheProductsMostFrequentLength() {
        // monthly: 16, 16, 3 days (the 16 + 1 h rounds to 16) → 16. weekly: 6 days, its own length.
        let events =
            datedGrace("A", product: "monthly", days: 16) + datedGrace("B", product: "monthly", days: 16)
            + datedGrace("C", product: "monthly", days: 3) + datedGrace("D", product: "weekly", days: 6)
            + undated("U", product: "monthly") + undated("W", product: "weekly")
        let result = dataset(events)
        let byId = Dictionary(uniqueKeysWithValues: result.episodes.map { ($0.subscription, $0) })
        #expect(byId["U"]?.graceEnd == t0 + 16 * T.day)
        #expect(byId["U"]?.graceEndInferred == true)
        #expect(byId["U"]?.isSavedInGrace == true)
        #expect(byId["W"]?.graceEnd == t0 + 6 * T.day)
        #expect(byId["A"]?.graceEndInferred == false)
        #expect(result.dataQuality.graceEndInferred == 2)
        #expect(result.dataQuality.graceEndUnknown == 0)
    }

    @Test func tiesGoToTheShorterLength() {
        let events =
            datedGrace("A", product: "monthly", days: 28) + datedGrace("B", product: "monthly", days: 3)
            + undated("U", product: "monthly")
        let result = dataset(events)
        #expect(result.episodes.first { $0.subscription == "U" }?.graceEnd == t0 + 3 * T.day)
    }

    @Test func withoutADatedEpisodeOfTheProductTheAppsLengthIsUsed() {
        let events = datedGrace("A", product: "monthly", days: 28) + undated("U", product: "annual")
        let result = dataset(events)
        #expect(result.episodes.first { $0.subscription == "U" }?.graceEnd == t0 + 28 * T.day)
        #expect(result.dataQuality.graceEndInferred == 1)
    }

    @Test func withoutAnyDatedEpisodeTheGraceEndStaysUnknown() {
        let events =
            datedGrace("A", product: "monthly", days: 28, bundle: "other.app") + undated("U", product: "annual")
        let result = dataset(events)
        let unknown = result.episodes.first { $0.subscription == "U" }
        #expect(unknown?.hasGrace == true)
        #expect(unknown?.graceEnd == nil)
        #expect(unknown?.isGraceEndUnknown == true)
        #expect(unknown?.isSavedInGrace == false)
        #expect(result.dataQuality.graceEndInferred == 0)
        #expect(result.dataQuality.graceEndUnknown == 1)
    }

    @Test func finishingTwiceChangesNothing() {
        var result = dataset(datedGrace("A", product: "monthly", days: 16) + undated("U", product: "monthly"))
        let once = result
        result.finish()
        #expect(result == once)
    }

    static let roundings: [(difference: Int64, days: Int)] = [
        (0, 0), (43_199_999, 0), (43_200_000, 1), (259_200_000, 3), (-43_200_000, 0), (-43_200_001, -1),
    ]

    @Test func graceLengthRoundsHalvesUp() {
        // ⌊x / 24 h + ½⌋: half a day rounds up, also below zero.
        for (difference, days) in Self.roundings {
            #expect(GraceLengths.days(from: t0, to: t0 + difference) == days, "\(difference) ms")
        }
    }

    // MARK: - Price at stake

    @Test func stakeIsTheRenewalPriceElseTheTransactionPrice() {
        let withRenewal = build([
            event(
                "f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 0, currency: "USD",
                renewalPrice: 9990, renewalCurrency: "USD")
        ])
        #expect(withRenewal.episodes.map(\.stakePrice) == [9990])
        #expect(withRenewal.episodes.map(\.stakeCurrency) == ["USD"])
        let withoutRenewal = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 4990, currency: "GBP")
        ])
        #expect(withoutRenewal.episodes.map(\.stakePrice) == [4990])
        #expect(withoutRenewal.episodes.map(\.stakeCurrency) == ["GBP"])
    }

    // MARK: - Apple's 2025 types

    @Test(arguments: ["MIGRATE", "MIGRATION", "METADATA_UPDATE"])
    func migrationsAndMetadataUpdatesNeitherOpenNorClose(type: String) {
        // Open from t0; a MIGRATE (or METADATA_UPDATE) on day 5 with a paid-looking transaction leaves it open; it
        // recovers on day 10. Alone, the same notification opens nothing.
        let result = build([
            renewalToT0,
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 9990),
            event("m1", type, at: t0 + 5 * T.day, expires: t0 + month, purchase: t0 + 5 * T.day, price: 9990),
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 10 * T.day, expires: t0 + 10 * T.day + month,
                purchase: t0 + 10 * T.day, price: 9990),
        ])
        #expect(result.episodes.map(\.outcome) == [.recovered])
        #expect(result.episodes.map(\.end) == [t0 + 10 * T.day])
        #expect(result.customer.purchases.isEmpty, "no purchase that could be a return")
        let alone = build([event("m2", type, at: t0, expires: t0 + month, purchase: t0, price: 9990)])
        #expect(alone.episodes.isEmpty)
        #expect(alone.dataQuality == DataQualityCounts())
    }

    @Test func aRefundShowsOnTheEpisodeItTouches() {
        // Episode 1 ends with a partial refund (REFUND_PRORATED, 50 %); episode 2 recovers on day 40 by the charge
        // "t2", which a full refund on day 45 takes back. A refund of another charge touches nothing.
        func refund(_ uuid: String, at day: Int64, transaction: String, type: String, share: Int32?)
            -> NotificationEvent
        {
            NotificationEvent(
                notificationUUID: uuid, notificationType: "REFUND", signedDate: t0 + day * T.day,
                environment: "Production", originalTransactionId: "S1", transactionId: transaction,
                inAppOwnershipType: "PURCHASED", revocationType: type, revocationPercentage: share)
        }
        let secondStart = t0 + 30 * T.day
        let result = build([
            renewalToT0,
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 9990),
            refund("x1", at: 5, transaction: "t1", type: "REFUND_PRORATED", share: 50_000),
            event("f2", "DID_FAIL_TO_RENEW", at: secondStart + T.minute, expires: secondStart, price: 9990),
            NotificationEvent(
                notificationUUID: "r2", notificationType: "DID_RENEW", subtype: "BILLING_RECOVERY",
                signedDate: t0 + 40 * T.day, environment: "Production", originalTransactionId: "S1",
                transactionId: "t2", purchaseDate: t0 + 40 * T.day, expiresDate: t0 + 70 * T.day, price: 9990,
                inAppOwnershipType: "PURCHASED"),
            refund("x2", at: 42, transaction: "other", type: "REFUND_FULL", share: nil),
            refund("x3", at: 45, transaction: "t2", type: "REFUND_FULL", share: nil),
        ])
        #expect(result.episodes.map(\.outcome) == [.other, .recovered])
        #expect(result.episodes.map(\.revocationType) == ["REFUND_PRORATED", "REFUND_FULL"])
        #expect(result.episodes.map(\.revocationPercentage) == [50_000, nil])
    }
}
