import Analysis
import TestSupport
import Testing

@Suite struct EpisodeBuilderTests {
    let t0 = T.march1

    func build(
        _ events: [NotificationEvent],
        asOf: Int64 = T.march1 + 90 * T.day,
        environment: String = "Production"
    ) -> SubscriptionEpisodes {
        EpisodeBuilder(options: .init(environment: environment, asOf: asOf)).build(events)
    }

    // MARK: - Outcomes

    @Test func recoveryInsideGraceIsSavedInGrace() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0, grace: t0 + 16 * T.day),
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 3 * T.day + 5_000, purchase: t0 + 3 * T.day,
                price: 9990, currency: "USD"),
        ])
        let expected = Episode(
            subscription: "S1", sequence: 1, environment: "Production", productId: "monthly", storefront: "USA",
            start: t0, hasGrace: true, graceEnd: t0 + 16 * T.day, end: t0 + 3 * T.day, outcome: .recovered,
            recoveryPrice: 9990, recoveryCurrency: "USD", openingNotificationUUID: "f1", closingNotificationUUID: "r1"
        )
        #expect(result.episodes == [expected])
        #expect(result.episodes[0].isSavedInGrace)
        #expect(result.episodes[0].duration(asOf: 0) == 3 * T.day)
        #expect(result.dataQuality == DataQualityCounts())
    }

    @Test func recoveryAfterGraceIsNotSavedInGrace() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0, grace: t0 + 16 * T.day),
            event("g1", "GRACE_PERIOD_EXPIRED", at: t0 + 16 * T.day + T.minute, grace: t0 + 16 * T.day),
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 20 * T.day + 5_000, purchase: t0 + 20 * T.day,
                price: 9990, currency: "USD"),
        ])
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, hasGrace: true,
            graceEnd: t0 + 16 * T.day, end: t0 + 20 * T.day, outcome: .recovered, recoveryPrice: 9990,
            recoveryCurrency: "USD", openingNotificationUUID: "f1", closingNotificationUUID: "r1"
        )
        #expect(result.episodes == [expected])
        #expect(!result.episodes[0].isSavedInGrace)
        #expect(result.dataQuality.orphanGracePeriodExpired == 0)
    }

    @Test func expiryAtDaySixty() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 60 * T.day),
        ])
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, end: t0 + 60 * T.day,
            outcome: .expired, openingNotificationUUID: "f1", closingNotificationUUID: "e1"
        )
        #expect(result.episodes == [expected])
        #expect(result.episodes[0].duration(asOf: 0) == 60 * T.day)
        #expect(!result.episodes[0].hasGrace)
    }

    @Test func cancelByDisablingAutoRenew() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("c1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: t0 + 5 * T.day),
            // The subscription then lapses: no episode is open, so this is an ordinary notification.
            event("e1", "EXPIRED", "VOLUNTARY", at: t0 + 30 * T.day),
        ])
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, end: t0 + 5 * T.day,
            outcome: .cancelled, openingNotificationUUID: "f1", closingNotificationUUID: "c1"
        )
        #expect(result.episodes == [expected])
        #expect(result.dataQuality == DataQualityCounts())
    }

    @Test func cancelByVoluntaryExpiry() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("e1", "EXPIRED", "VOLUNTARY", at: t0 + 7 * T.day),
        ])
        #expect(result.episodes.map(\.outcome) == [.cancelled])
        #expect(result.episodes.map(\.end) == [t0 + 7 * T.day])
        #expect(result.episodes.map(\.closingNotificationUUID) == ["e1"])
    }

    @Test func productNotForSaleIsOther() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("e1", "EXPIRED", "PRODUCT_NOT_FOR_SALE", at: t0 + 9 * T.day),
        ])
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, end: t0 + 9 * T.day,
            outcome: .other, openingNotificationUUID: "f1", closingNotificationUUID: "e1"
        )
        #expect(result.episodes == [expected])
    }

    @Test(arguments: ["REFUND", "REVOKE"])
    func refundAndRevokeAreOther(type: String) {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("x1", type, at: t0 + 2 * T.day),
        ])
        #expect(result.episodes.map(\.outcome) == [.other])
        #expect(result.episodes.map(\.end) == [t0 + 2 * T.day])
    }

    /// Every row of the end table, and notifications that must leave the episode open.
    @Test(
        arguments: [
            ("DID_RENEW", "BILLING_RECOVERY", Episode.Outcome.recovered),
            ("DID_RENEW", nil, .recovered),
            ("EXPIRED", "BILLING_RETRY", .expired),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", .cancelled),
            ("EXPIRED", "VOLUNTARY", .cancelled),
            ("EXPIRED", "PRICE_INCREASE", .other),
            ("EXPIRED", "PRODUCT_NOT_FOR_SALE", .other),
            ("EXPIRED", nil, .other),
            ("EXPIRED", "SOMETHING_NEW", .other),
            ("REFUND", nil, .other),
            ("REVOKE", nil, .other),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", .open),
            ("GRACE_PERIOD_EXPIRED", nil, .open),
            ("DID_FAIL_TO_RENEW", "GRACE_PERIOD", .open),
            ("PRICE_INCREASE", "PENDING", .open),
            ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", .open),
            ("REFUND_DECLINED", nil, .open),
            ("A_TYPE_FROM_THE_FUTURE", nil, .open),
        ] as [(String, String?, Episode.Outcome)])
    func endTable(type: String, subtype: String?, outcome: Episode.Outcome) {
        let result = build(
            [
                event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
                event("x1", type, subtype, at: t0 + 4 * T.day),
            ],
            asOf: t0 + 10 * T.day
        )
        #expect(result.episodes.map(\.outcome) == [outcome])
        // Closed at the notification's signedDate (no purchaseDate given); open ones censored at as-of.
        #expect(
            result.episodes.map { $0.duration(asOf: t0 + 10 * T.day) } == [outcome == .open ? 10 * T.day : 4 * T.day])
    }

    // MARK: - Repeated DID_FAIL_TO_RENEW and grace

    @Test func secondFailureInsideEpisodeFillsMissingGraceEnd() {
        let result = build([
            // Grace announced by the subtype, but the renewal info carries no date yet.
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0),
            event("f2", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.day, expires: t0, grace: t0 + 6 * T.day),
            // A later one does not move a known grace end.
            event("f3", "DID_FAIL_TO_RENEW", at: t0 + 2 * T.day, expires: t0, grace: t0 + 9 * T.day),
            event("r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 5 * T.day, purchase: t0 + 5 * T.day),
        ])
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, hasGrace: true,
            graceEnd: t0 + 6 * T.day, end: t0 + 5 * T.day, outcome: .recovered, openingNotificationUUID: "f1",
            closingNotificationUUID: "r1"
        )
        #expect(result.episodes == [expected])
        #expect(result.episodes[0].isSavedInGrace)
    }

    @Test func graceEndComesFromFirstNotificationOfTheEpisodeThatHasOne() {
        // The opening notification has the subtype only; GRACE_PERIOD_EXPIRED's renewal info has the date.
        let result = build(
            [
                event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0),
                event(
                    "g1", "GRACE_PERIOD_EXPIRED", at: t0 + 16 * T.day + T.minute, expires: t0,
                    grace: t0 + 16 * T.day),
            ],
            asOf: t0 + 20 * T.day
        )
        #expect(result.episodes.map(\.graceEnd) == [t0 + 16 * T.day])
        #expect(result.episodes.map(\.outcome) == [.open])
    }

    @Test func graceEndOfAnotherPeriodDoesNotDateTheEpisode() {
        // A late copy from the previous period (expiresDate before t0) and one without expiresDate date nothing.
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0),
            event(
                "f0", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.hour, expires: t0 - 30 * T.day,
                grace: t0 - 14 * T.day),
            event("g1", "GRACE_PERIOD_EXPIRED", at: t0 + 2 * T.hour, grace: t0 + 3 * T.day),
            event("f2", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.day, expires: t0, grace: t0 + 16 * T.day),
        ])
        #expect(result.episodes.map(\.graceEnd) == [t0 + 16 * T.day])
    }

    @Test func episodeStartedAtSignedDateIsDatedByItsOpeningNotificationOnly() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0),
            event("f2", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.day, grace: t0 + 16 * T.day),
        ])
        #expect(result.episodes.map(\.start) == [t0])
        #expect(result.episodes.map(\.graceEnd) == [nil])
    }

    @Test func graceWithoutDateStaysUnknown() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0),
            event("r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + T.day, purchase: t0 + T.day),
        ])
        #expect(result.episodes.map(\.hasGrace) == [true])
        #expect(result.episodes.map(\.graceEnd) == [nil])
        // Without a known grace end, a recovery cannot be shown to be inside grace.
        #expect(result.episodes.map(\.isSavedInGrace) == [false])
    }

    @Test func graceDateWithoutSubtypeMeansGrace() {
        let result = build([event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, grace: t0 + 3 * T.day)])
        #expect(result.episodes.map(\.hasGrace) == [true])
        #expect(result.episodes.map(\.graceEnd) == [t0 + 3 * T.day])
    }

    @Test func laterGraceDateDoesNotGiveGraceToAnEpisodeOpenedWithout() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("f2", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.day, expires: t0, grace: t0 + 6 * T.day),
        ])
        #expect(result.episodes.count == 1)
        #expect(result.episodes.map(\.hasGrace) == [false])
        #expect(result.episodes.map(\.graceEnd) == [nil])
    }

    // MARK: - Orphans

    @Test func orphansOfEachKind() {
        let result = build([
            event("o1", "DID_RENEW", "BILLING_RECOVERY", at: t0, purchase: t0),
            event("o2", "GRACE_PERIOD_EXPIRED", at: t0 + T.day),
            event("o3", "EXPIRED", "BILLING_RETRY", at: t0 + 2 * T.day),
            // Not orphans: a plain renewal, other expiries, a cancel with no episode open.
            event("n1", "DID_RENEW", at: t0 + 3 * T.day, purchase: t0 + 3 * T.day),
            event("n2", "EXPIRED", "VOLUNTARY", at: t0 + 4 * T.day),
            event("n3", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: t0 + 5 * T.day),
        ])
        #expect(result.episodes.isEmpty)
        #expect(
            result.dataQuality
                == DataQualityCounts(
                    orphanDidRenewBillingRecovery: 1, orphanExpiredBillingRetry: 1, orphanGracePeriodExpired: 1)
        )
    }

    @Test func closingNotificationAfterAnEpisodeEndedIsAnOrphan() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("c1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: t0 + T.day),
            event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 60 * T.day),
        ])
        #expect(result.episodes.map(\.outcome) == [.cancelled])
        #expect(result.dataQuality.orphanExpiredBillingRetry == 1)
    }

    // MARK: - Order, duplicates, filters

    @Test func inputOrderDoesNotMatter() {
        let events = [
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0, grace: t0 + 16 * T.day),
            event("g1", "GRACE_PERIOD_EXPIRED", at: t0 + 16 * T.day + T.minute),
            event("r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 20 * T.day, purchase: t0 + 20 * T.day),
            event("f2", "DID_FAIL_TO_RENEW", at: t0 + 50 * T.day, expires: t0 + 50 * T.day),
            event("e2", "EXPIRED", "BILLING_RETRY", at: t0 + 110 * T.day),
        ]
        let sorted = build(events, asOf: t0 + 120 * T.day)
        #expect(sorted.episodes.map(\.outcome) == [.recovered, .expired])
        #expect(sorted.episodes.map(\.sequence) == [1, 2])
        for shuffled in [Array(events.reversed()), [events[3], events[0], events[4], events[2], events[1]]] {
            #expect(build(shuffled, asOf: t0 + 120 * T.day) == sorted)
        }
    }

    @Test func tiesAreBrokenByUUIDBytes() {
        // Same signedDate: "B…" (0x42) sorts before "a…" (0x61) in byte order, though not case-insensitively.
        let failFirst = build([
            event("b-renew", "DID_RENEW", at: t0, purchase: t0),
            event("a-fail", "DID_FAIL_TO_RENEW", at: t0, expires: t0),
        ])
        #expect(failFirst.episodes.map(\.outcome) == [.recovered])

        let renewFirst = build([
            event("a-fail", "DID_FAIL_TO_RENEW", at: t0, expires: t0),
            event("B-renew", "DID_RENEW", at: t0, purchase: t0),
        ])
        #expect(renewFirst.episodes.map(\.outcome) == [.open])
    }

    @Test func duplicateUUIDsCountOnce() {
        let fail = event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0)
        let expiry = event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 60 * T.day)
        let result = build([fail, expiry, fail, fail, expiry])
        #expect(result.episodes.map(\.outcome) == [.expired])
        #expect(result.dataQuality == DataQualityCounts(duplicatesSkipped: 3))
    }

    @Test func duplicateKeepsTheEarliestCopy() {
        // A resend with a different signedDate: the first copy in processing order counts.
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
            event("x1", "EXPIRED", "BILLING_RETRY", at: t0 + 10 * T.day),
            event("x1", "EXPIRED", "BILLING_RETRY", at: t0 + 60 * T.day),
        ])
        #expect(result.episodes.map(\.end) == [t0 + 10 * T.day])
        #expect(result.dataQuality.duplicatesSkipped == 1)
    }

    @Test func familySharedIsSkippedAndCounted() {
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, ownership: "FAMILY_SHARED"),
            event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 60 * T.day, ownership: "FAMILY_SHARED"),
        ])
        #expect(result.episodes.isEmpty)
        #expect(result.dataQuality == DataQualityCounts(familySharedSkipped: 2))
    }

    @Test func filtersCountEachNotificationOnceInOrder() {
        // Order: as-of cut, then duplicates, environment, family sharing. Each distinct notification
        // lands in at most one count.
        let sandboxFamily = event("s1", "DID_RENEW", at: t0, environment: "Sandbox", ownership: "FAMILY_SHARED")
        let family = event("p1", "DID_RENEW", at: t0 + 1, ownership: "FAMILY_SHARED")
        let result = build(
            [
                sandboxFamily, sandboxFamily,  // 1 duplicate + 1 outside the environment
                family, family,  // 1 duplicate + 1 family shared
                event("n1", "DID_RENEW", at: t0 + 2, environment: nil),  // no environment: outside
                event("late", "DID_RENEW", at: t0 + 2 * T.day, environment: "Sandbox"),  // after as-of: nowhere
            ], asOf: t0 + T.day)
        #expect(
            result.dataQuality == DataQualityCounts(duplicatesSkipped: 2, outsideEnvironment: 2, familySharedSkipped: 1)
        )
        #expect(result.renewals == PeriodCounts())
    }

    @Test func sandboxIsExcludedByDefaultAndIncludedWhenAsked() {
        let events = [
            event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, environment: "Sandbox", expires: t0),
            event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 2 * T.day, environment: "Sandbox"),
            event("p1", "DID_RENEW", at: t0 + 3 * T.day, purchase: t0 + 3 * T.day),
        ]
        let production = build(events)
        #expect(production.episodes.isEmpty)
        #expect(production.dataQuality == DataQualityCounts(outsideEnvironment: 2))

        let sandbox = build(events, environment: "Sandbox")
        #expect(sandbox.episodes.map(\.outcome) == [.expired])
        #expect(sandbox.episodes.map(\.environment) == ["Sandbox"])
        #expect(sandbox.dataQuality == DataQualityCounts(outsideEnvironment: 1))
    }

    // MARK: - As-of

    @Test func openEpisodeIsCensoredAtAsOf() {
        let asOf = t0 + 10 * T.day
        let events = [event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0)]
        let result = build(events, asOf: asOf)
        let expected = Episode(
            subscription: "S1", productId: "monthly", storefront: "USA", start: t0, outcome: .open,
            openingNotificationUUID: "f1"
        )
        #expect(result.episodes == [expected])
        #expect(result.episodes[0].duration(asOf: asOf) == 10 * T.day)
        let dataset = EpisodeBuilder(options: .init(asOf: asOf)).dataset(events)
        #expect(dataset.episodes.map(\.outcome) == [.open])
        #expect(dataset.dataQuality.inferredExpiry == 0)
    }

    @Test func notificationsAfterAsOfAreIgnored() {
        let asOf = t0 + 30 * T.day
        let result = build(
            [
                event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
                event("e1", "EXPIRED", "BILLING_RETRY", at: asOf + 1),
                event("e1", "EXPIRED", "BILLING_RETRY", at: asOf + 2),  // a duplicate, also late
                event("r1", "DID_RENEW", at: asOf + T.day),  // a renewal, late
                event("o1", "GRACE_PERIOD_EXPIRED", at: asOf + 2 * T.day),  // would be an orphan
            ],
            asOf: asOf
        )
        #expect(result.episodes.map(\.outcome) == [.open])
        #expect(result.episodes[0].duration(asOf: asOf) == 30 * T.day)
        #expect(result.dataQuality == DataQualityCounts())
        #expect(result.renewals == PeriodCounts())
    }

    @Test func notificationSignedExactlyAtAsOfCounts() {
        let asOf = t0 + 30 * T.day
        let result = build(
            [
                event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0),
                event("e1", "EXPIRED", "BILLING_RETRY", at: asOf),
            ],
            asOf: asOf
        )
        #expect(result.episodes.map(\.outcome) == [.expired])
    }

    // MARK: - Times

    @Test func startIsExpiresDateElseSignedDate() {
        let withExpiry = build([event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.hour, expires: t0)])
        let withoutExpiry = build([event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.hour)])
        #expect(withExpiry.episodes.map(\.start) == [t0])
        #expect(withoutExpiry.episodes.map(\.start) == [t0 + T.hour])
    }

    @Test func recoveryEndIsPurchaseDateElseSignedDate() {
        let fail = event("f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0)
        let withPurchase = build([
            fail, event("r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 5 * T.day, purchase: t0 + 4 * T.day),
        ])
        let withoutPurchase = build([fail, event("r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 5 * T.day)])
        #expect(withPurchase.episodes.map(\.end) == [t0 + 4 * T.day])
        #expect(withoutPurchase.episodes.map(\.end) == [t0 + 5 * T.day])
    }

    @Test func recoveryPurchasedBeforeStartClosesWithDurationZero() {
        // The renewal's purchaseDate is before t0 (a late or stale transaction): it still closes the
        // episode as recovered; the duration clamps at 0.
        let result = build([
            event("f1", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: t0 + T.minute, expires: t0, grace: t0 + 3 * T.day),
            event("r1", "DID_RENEW", at: t0 + 2 * T.minute, purchase: t0 - T.hour),
        ])
        #expect(result.episodes.map(\.outcome) == [.recovered])
        #expect(result.episodes.map(\.end) == [t0 - T.hour])
        #expect(result.episodes.map { $0.duration(asOf: 0) } == [0])
        #expect(result.episodes.map(\.isSavedInGrace) == [true])
    }

    // MARK: - Attributes

    @Test func sequenceAndOpeningAttributes() {
        let result = build([
            event(
                "f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, product: "monthly", storefront: "FRA",
                offerType: 1, offerDiscountType: "FREE_TRIAL"),
            event(
                "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + T.day, product: "monthly", price: 4990,
                currency: "EUR"),
            event(
                "f2", "DID_FAIL_TO_RENEW", at: t0 + 31 * T.day, expires: t0 + 31 * T.day, product: "annual",
                storefront: "DEU", offerType: 2, offerDiscountType: "PAY_AS_YOU_GO"),
        ])
        #expect(result.episodes.map(\.sequence) == [1, 2])
        #expect(result.episodes.map(\.productId) == ["monthly", "annual"])
        #expect(result.episodes.map(\.storefront) == ["FRA", "DEU"])
        #expect(result.episodes.map(\.offerType) == [1, 2])
        #expect(result.episodes.map(\.offerDiscountType) == ["FREE_TRIAL", "PAY_AS_YOU_GO"])
        #expect(result.episodes.map(\.isTrialConversion) == [true, false])
        #expect(result.episodes.map(\.recoveryPrice) == [4990, nil])
        #expect(result.episodes.map(\.recoveryCurrency) == ["EUR", nil])
        #expect(result.episodes.map(\.cohortMonth) == ["2024-03", "2024-04"])
    }

    @Test func renewalsAreCountedByMonthOfSignedDate() {
        let result = build([
            event("r1", "DID_RENEW", at: T.march1 - 1),  // 2024-02
            event("r2", "DID_RENEW", at: T.march1),  // 2024-03
            event("r3", "DID_RENEW", "BILLING_RECOVERY", at: T.march1 + T.day),  // an orphan, not a renewal
            event("f1", "DID_FAIL_TO_RENEW", at: T.march1 + 2 * T.day, expires: T.march1 + 2 * T.day),
            // Closes the episode and, having no BILLING_RECOVERY subtype, also counts as a renewal.
            event("r4", "DID_RENEW", at: T.april1, purchase: T.april1),
            event("r5", "DID_RENEW", "UPGRADE", at: T.april1 + 1),
        ])
        #expect(
            result.renewals
                == PeriodCounts([
                    CalendarPeriod(monthContaining: T.march1 - 1): 1,
                    CalendarPeriod(monthContaining: T.march1): 1,
                    CalendarPeriod(monthContaining: T.april1): 2,
                ])
        )
        #expect(result.dataQuality.orphanDidRenewBillingRecovery == 1)
    }

    @Test func eventsWithoutSubscriptionOnlyFeedFilterCounts() {
        let test = event("t1", "TEST", at: t0, subscription: nil, product: nil)
        let result = build([
            test, test,
            event("t2", "TEST", at: t0, subscription: nil, environment: "Sandbox", product: nil),
            event("f1", "DID_FAIL_TO_RENEW", at: t0, subscription: nil, expires: t0),
            event("r1", "DID_RENEW", at: t0, subscription: nil),
        ])
        #expect(result.subscription == nil)
        #expect(result.episodes.isEmpty)
        #expect(result.renewals == PeriodCounts())
        #expect(result.dataQuality == DataQualityCounts(duplicatesSkipped: 1, outsideEnvironment: 1))
    }
}
