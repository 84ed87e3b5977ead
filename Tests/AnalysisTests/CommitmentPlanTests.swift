import Analysis
import TestSupport
import Testing

/// The rules METRICS.md version 2.2 gives monthly subscriptions with a 12-month commitment, each worked out by hand.
@Suite struct CommitmentPlanTests {
    let t0 = T.march1
    let month = 31 * T.day

    func build(_ events: [NotificationEvent], asOf: Int64 = T.march1 + 200 * T.day) -> SubscriptionEpisodes {
        EpisodeBuilder(options: .init(asOf: asOf)).build(events)
    }

    func dataset(_ events: [NotificationEvent], asOf: Int64) -> EpisodeDataset {
        EpisodeBuilder(options: .init(asOf: asOf)).dataset(events)
    }

    /// The failure of the fifth installment (n = 4 paid, N = 12) under a commitment, or of a standard monthly plan.
    func failure(commitment: Bool, subtype: String? = nil, grace: Int64? = nil) -> NotificationEvent {
        event(
            "f1", "DID_FAIL_TO_RENEW", subtype, at: t0 + T.minute, expires: t0, grace: grace, price: 4990,
            currency: "USD", billingPlanType: commitment ? "MONTHLY" : nil, installment: commitment ? 4 : nil,
            installments: commitment ? 12 : nil)
    }

    func recovery(onDay day: Int64) -> NotificationEvent {
        event(
            "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + (day - 1) * T.day + T.hour,
            expires: t0 + (day - 1) * T.day + month, purchase: t0 + (day - 1) * T.day, price: 4990, currency: "USD")
    }

    @Test func aRecoveryOnDay75EndsACommitmentEpisodeButComesAfterAStandardExpiry() throws {
        // Day 75 is [t0 + 74 days, t0 + 75 days). Under a commitment W = 90: the recovery is inside the window.
        let commitment = build([failure(commitment: true), recovery(onDay: 75)])
        let episode = try #require(commitment.episodes.first)
        #expect(commitment.episodes.count == 1)
        #expect(episode.billingPlan == .commitment)
        #expect(episode.outcome == .recovered)
        #expect(episode.recoveredBy == .retry)
        #expect(episode.end == t0 + 74 * T.day)
        #expect(!episode.endInferred)
        #expect(episode.installmentsAtRisk == 8)

        // The same days on a standard plan: the recovery is signed after t0 + 61 days, so the episode ended
        // expired at t0 + 60 days by inference and the recovery is an orphan.
        let standard = build([failure(commitment: false), recovery(onDay: 75)])
        let expired = try #require(standard.episodes.first)
        #expect(expired.billingPlan == .standard)
        #expect(expired.outcome == .expired)
        #expect(expired.end == t0 + 60 * T.day)
        #expect(expired.endInferred)
        #expect(expired.installmentsAtRisk == 1)
        #expect(standard.dataQuality.orphanDidRenewBillingRecovery == 1)
    }

    @Test func turningAutoRenewOffOnDay10DoesNotEndACommitmentEpisode() throws {
        let autoRenewOff = event(
            "c1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: t0 + 9 * T.day + T.hour, expires: t0,
            billingPlanType: "MONTHLY", installment: 4, installments: 12)
        let recovered = build([failure(commitment: true), autoRenewOff, recovery(onDay: 20)])
        let episode = try #require(recovered.episodes.first)
        #expect(recovered.episodes.count == 1)
        #expect(episode.outcome == .recovered)
        #expect(episode.end == t0 + 19 * T.day)
        #expect(episode.closingNotificationUUID == "r1")

        // The same notification ends a standard episode as cancelled.
        let standard = build([failure(commitment: false), autoRenewOff, recovery(onDay: 20)])
        #expect(standard.episodes.first?.outcome == .cancelled)
        #expect(standard.episodes.first?.end == t0 + 9 * T.day + T.hour)

        // EXPIRED / VOLUNTARY still ends a commitment episode as cancelled.
        let voluntary = event("e1", "EXPIRED", "VOLUNTARY", at: t0 + 30 * T.day, expires: t0)
        let cancelled = build([failure(commitment: true), autoRenewOff, voluntary])
        #expect(cancelled.episodes.first?.outcome == .cancelled)
        #expect(cancelled.episodes.first?.end == t0 + 30 * T.day)
    }

    @Test func aCommitmentEpisodeMaturesAt91Days() throws {
        let events = [failure(commitment: true)]
        // At t0 + 90 days it is still open (day 91 of retry has begun, but the window has a day's margin).
        var open = dataset(events, asOf: t0 + 90 * T.day)
        open.finish()
        let stillOpen = try #require(open.episodes.first)
        #expect(stillOpen.outcome == .open)
        #expect(!stillOpen.isMature(asOf: t0 + 90 * T.day))
        #expect(stillOpen.maturesAt == t0 + 91 * T.day)
        #expect(stillOpen.retryWindowEnd == t0 + 90 * T.day)

        // At t0 + 91 days it is mature: expired at t0 + 90 days by inference.
        var mature = dataset(events, asOf: t0 + 91 * T.day)
        mature.finish()
        let expired = try #require(mature.episodes.first)
        #expect(expired.outcome == .expired)
        #expect(expired.end == t0 + 90 * T.day)
        #expect(expired.endInferred)
        #expect(expired.isMature(asOf: t0 + 91 * T.day))
        #expect(mature.dataQuality.inferredExpiry == 1)

        // A standard episode of the same start is long mature by then.
        var standard = dataset([failure(commitment: false)], asOf: t0 + 61 * T.day)
        standard.finish()
        #expect(standard.episodes.first?.outcome == .expired)
        #expect(standard.episodes.first?.end == t0 + 60 * T.day)
    }

    @Test(arguments: [
        (Int32?(4), Int32?(12), 8), (Int32?(11), Int32?(12), 1), (Int32?(12), Int32?(12), 1),
        (Int32?(13), Int32?(12), 1), (nil, Int32?(12), 1), (Int32?(4), nil, 1), (Int32?(1), Int32?(12), 11),
    ])
    func installmentsAtRiskFromNAndN(n: Int32?, total: Int32?, expected: Int) {
        #expect(Episode.installmentsAtRisk(billingPeriodNumber: n, totalBillingPeriods: total) == expected)
    }

    @Test func installmentsAtRiskComeFromTheOpeningTransaction() throws {
        let opening = event(
            "f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 4990, currency: "USD",
            billingPlanType: "MONTHLY", installment: 9, installments: 12)
        let episode = try #require(build([opening]).episodes.first)
        #expect(episode.installmentsAtRisk == 3)
        #expect(episode.commitmentStake == Int64(3 * 4990))
        // A standard plan's transaction with commitment fields (BILLED_UPFRONT) is a standard episode.
        let upfront = event(
            "f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 4990, currency: "USD",
            billingPlanType: "BILLED_UPFRONT", installment: 1, installments: 1)
        let standard = try #require(build([upfront]).episodes.first)
        #expect(standard.billingPlan == .standard)
        #expect(standard.installmentsAtRisk == 1)
    }

    @Test func aLateNoticeOfACommitmentPairsWithARecoveryOnDay80() throws {
        // Paid through t0, then the recovery on day 80 is delivered first, then the failure notice for t0.
        let renewal = event(
            "r0", "DID_RENEW", at: t0 - month + T.minute, expires: t0, purchase: t0 - month, price: 4990,
            billingPlanType: "MONTHLY", installment: 4, installments: 12)
        let late = event(
            "f1", "DID_FAIL_TO_RENEW", at: t0 + 79 * T.day + 3 * T.hour, expires: t0, price: 4990,
            billingPlanType: "MONTHLY", installment: 4, installments: 12)
        let result = build([renewal, recovery(onDay: 80), late])
        let episode = try #require(result.episodes.first)
        #expect(episode.outcome == .recovered)
        #expect(episode.end == t0 + 79 * T.day)
        #expect(result.dataQuality.lateFailureNotice == 1)
        #expect(result.dataQuality.orphanDidRenewBillingRecovery == 0)
    }

    @Test func aGracePeriodOnACommitmentIsCountedAndDatesNoStandardEpisode() throws {
        let commitment = failure(commitment: true, subtype: "GRACE_PERIOD", grace: t0 + 16 * T.day)
        var data = dataset([commitment], asOf: t0 + 100 * T.day)
        data.finish()
        let episode = try #require(data.episodes.first)
        // The grace rules apply as written, and the episode is counted.
        #expect(episode.hasGrace)
        #expect(episode.graceEnd == t0 + 16 * T.day)
        #expect(episode.isCommitmentGrace)
        #expect(data.dataQuality.commitmentGrace == 1)
        #expect(data.dataQuality.checks.contains { $0.check == "commitment_grace" && $0.count == 1 })
        // Its length is no usual grace length of the product, whether observed or counted by the database.
        #expect(GraceLengths(observedIn: data.episodes).length(productId: "monthly", bundleId: nil) == nil)
        let counted = GraceLengths(counts: [
            .init(productId: "monthly", bundleId: "app", days: 16, episodes: 3, billingPlan: .commitment),
            .init(productId: "monthly", bundleId: "app", days: 6, episodes: 1),
        ])
        #expect(counted.length(productId: "monthly", bundleId: nil) == 6)
        // Without a commitment episode with grace, the check is not listed.
        #expect(!DataQualityCounts().checks.contains { $0.check == "commitment_grace" })
    }

    @Test func eachPlanHasItsOwnCurveAndChance() {
        let asOf = t0 + 200 * T.day
        let episodes = [
            // Standard: one recovered on day 10, one expired at day 60.
            episode("S1", start: t0, .recovered, after: 9 * T.day + T.hour),
            episode("S2", start: t0, .expired, after: 60 * T.day),
            // Commitment: one recovered on day 75, one expired at day 90, one open 30 days in.
            episode("C1", start: t0, .recovered, after: 74 * T.day + T.hour, plan: .commitment),
            episode("C2", start: t0, .expired, after: 90 * T.day, plan: .commitment),
            episode("C3", start: asOf - 30 * T.day, .open, plan: .commitment, installmentsAtRisk: 7),
        ]
        let report = ChurnReport(EpisodeDataset(asOf: asOf, episodes: episodes))
        #expect(report.recoveryCurve.count == 60)
        #expect(report.recoveryCurve.first?.atRisk == 2)
        #expect(report.recoveryCurve.last?.cifRecovery == 0.5)
        // Days 1…90: at 74 days + 1 h, n = 2 (C3 was censored at 30 days) and C1 recovers: CIF = 1/2.
        let commitment = report.recoveryCurveCommitment
        #expect(commitment.count == 90)
        #expect(commitment[73].cifRecovery == 0)
        #expect(abs(commitment[74].cifRecovery - 1.0 / 2.0) < 1e-12)
        #expect(commitment[74].recovered == 1)
        #expect(commitment[89].atRisk == 1)
        // C3, 30 days in: S(30 d) = 1, CIF(90 d) = 1/2 (at 74 days, n = 2 after C3's censoring at 30 days).
        let open = report.openEpisodes
        #expect(open.map(\.subscription) == ["C3"])
        #expect(abs((open.first?.recoveryChance ?? 0) - 0.5) < 1e-12)
        #expect(open.first?.billingPlan == .commitment)
        #expect(open.first?.installmentsAtRisk == 7)
        // No commitment episode: no commitment curve.
        let standardOnly = ChurnReport(EpisodeDataset(asOf: asOf, episodes: Array(episodes.prefix(2))))
        #expect(standardOnly.recoveryCurveCommitment.isEmpty)
    }

    @Test func revenueAddsWhatCommitmentsOweAndLost() throws {
        let asOf = t0 + 200 * T.day
        let rows = Revenue.rows(episodes: [
            episode(
                "C1", start: asOf - 10 * T.day, .open, stake: 4990, stakeCurrency: "USD", plan: .commitment,
                installmentsAtRisk: 8),
            episode(
                "C2", start: t0, .expired, after: 90 * T.day, stake: 4990, stakeCurrency: "USD", plan: .commitment,
                installmentsAtRisk: 3),
            episode("S1", start: asOf - 10 * T.day, .open, stake: 9990, stakeCurrency: "USD"),
        ])
        let usd = try #require(rows.first { $0.currency == "USD" }).amounts
        #expect(usd.openEpisodes == 2)
        #expect(usd.atRiskAmount == Int64(4990 + 9990))
        #expect(usd.expiredEpisodes == 1)
        #expect(usd.lostAmount == Int64(4990))
        #expect(usd.commitmentOpenEpisodes == 1)
        #expect(usd.commitmentAmountAtRisk == Int64(8 * 4990))
        #expect(usd.commitmentAmountLost == Int64(3 * 4990))
    }
}
