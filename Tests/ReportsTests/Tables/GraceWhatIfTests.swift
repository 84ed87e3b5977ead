import Analysis
import Reports
import TestSupport
import Testing

/// `grace_whatif.csv`'s figures per app setting, worked out by hand (METRICS.md v2.2, "What another grace setting
/// would have kept or given away").
@Suite struct GraceWhatIfTests {
    static let asOf = T.july1
    /// Mature: t0 + 61 days = 2024-05-01 ≤ 2024-07-01.
    static let t0 = T.march1
    static let day = T.day
    static let app = "app"

    /// A mature standard episode of `app`, recovered by retry or expired after `days`, with a grace period of
    /// `graceDays` dated by a notification; a paid opening transaction of `periodDays` (nil: a free trial's).
    static func episode(
        _ id: String, _ product: String, _ outcome: Episode.Outcome, afterDays days: Int64, graceDays: Int?,
        periodDays: Int?, stake: Int64, trial: Bool = false, bundleId: String? = app,
        plan: Episode.BillingPlan = .standard
    ) -> Episode {
        Episode(
            subscription: id, productId: product, start: t0, hasGrace: graceDays != nil,
            graceEnd: graceDays.map { t0 + Int64($0) * day }, end: t0 + days * day, outcome: outcome,
            recoveredBy: outcome == .recovered ? .retry : nil, stakePrice: stake, stakeCurrency: "USD",
            bundleId: bundleId, openingNotificationUUID: id + "-open", offerType: trial ? 1 : nil,
            offerDiscountType: trial ? "FREE_TRIAL" : nil, isTrialConversion: trial, billingPlan: plan,
            openingPrice: trial ? 0 : stake, periodDays: periodDays)
    }

    /// One app, two products, a free trial failing its first renewal:
    ///
    /// | episode | product (period) | grace seen | outcome | days | stake |
    /// |---|---|---|---|---|---|
    /// | W1 | weekly (7 days) | 6 days | recovered by retry | 2 | 2.990 |
    /// | W2 | weekly (7 days) | 6 days | expired | 60 | 2.990 |
    /// | M1 | monthly (30 days) | 16 days | recovered by retry | 10 | 9.990 |
    /// | M2 | monthly (30 days) | 16 days | recovered by retry | 20 | 9.990 |
    /// | T1 | monthly, first charge after a free trial | none | recovered by retry | 1 | 9.990 |
    /// | C1 | monthly, 12-month commitment (left out) | none | expired | 90 | 4.990 |
    ///
    /// The data fit 16 days for paid-to-paid renewals only: the weekly product had 6 days (16 or 28), the monthly
    /// one 16, and the first charge after a free trial none.
    static let episodes = [
        episode("W1", "weekly", .recovered, afterDays: 2, graceDays: 6, periodDays: 7, stake: 2990),
        episode("W2", "weekly", .expired, afterDays: 60, graceDays: 6, periodDays: 7, stake: 2990),
        episode("M1", "monthly", .recovered, afterDays: 10, graceDays: 16, periodDays: 30, stake: 9990),
        episode("M2", "monthly", .recovered, afterDays: 20, graceDays: 16, periodDays: 30, stake: 9990),
        episode("T1", "monthly", .recovered, afterDays: 1, graceDays: nil, periodDays: nil, stake: 9990, trial: true),
        episode(
            "C1", "monthly", .expired, afterDays: 90, graceDays: nil, periodDays: 30, stake: 4990, plan: .commitment),
    ]

    /// Every row by hand. A weekly day is worth 2.990 / 7 (0.427143), a monthly day 9.990 / 30 (0.333).
    ///
    /// - off: nothing in grace, nothing free.
    /// - 3 days (weekly 3): W1 in grace (2 paid days), W2 free 3; monthly: T1 in grace (1) under all renewals but
    ///   not under paid to paid only (its length is 0 there), M1 and M2 free 3 each.
    /// - 16 days (weekly 6): W1 paid 2, W2 free 6; M1 in grace (10), M2 free 16, T1 paid 1 under all renewals.
    /// - 28 days (weekly 6): M1 and M2 in grace (10 + 20), T1 paid 1 under all renewals.
    static let expected = [
        "app,off,,monthly,0,false,3,0,0.000000,0.000000,0.000000,0.000000,0.000,0.000",
        "app,off,,weekly,0,false,2,0,0.000000,0.000000,0.000000,0.000000,0.000,0.000",
        "app,off,,(all),,false,5,0,0.000000,0.000000,0.000000,0.000000,0.000,0.000",
        "app,3,all_renewals,monthly,3,false,3,1,1.000000,6.000000,0.333333,2.000000,0.333,1.998",
        "app,3,all_renewals,weekly,3,false,2,1,2.000000,3.000000,1.000000,1.500000,0.854,1.281",
        "app,3,all_renewals,(all),,false,5,2,3.000000,9.000000,0.600000,1.800000,1.187,3.279",
        "app,3,paid_to_paid_only,monthly,3,false,3,0,0.000000,6.000000,0.000000,2.000000,0.000,1.998",
        "app,3,paid_to_paid_only,weekly,3,false,2,1,2.000000,3.000000,1.000000,1.500000,0.854,1.281",
        "app,3,paid_to_paid_only,(all),,false,5,1,2.000000,9.000000,0.400000,1.800000,0.854,3.279",
        "app,16,all_renewals,monthly,16,false,3,2,11.000000,16.000000,3.666667,5.333333,3.663,5.328",
        "app,16,all_renewals,weekly,6,false,2,1,2.000000,6.000000,1.000000,3.000000,0.854,2.563",
        "app,16,all_renewals,(all),,false,5,3,13.000000,22.000000,2.600000,4.400000,4.517,7.891",
        "app,16,paid_to_paid_only,monthly,16,true,3,1,10.000000,16.000000,3.333333,5.333333,3.330,5.328",
        "app,16,paid_to_paid_only,weekly,6,true,2,1,2.000000,6.000000,1.000000,3.000000,0.854,2.563",
        "app,16,paid_to_paid_only,(all),,true,5,2,12.000000,22.000000,2.400000,4.400000,4.184,7.891",
        "app,28,all_renewals,monthly,28,false,3,3,31.000000,0.000000,10.333333,0.000000,10.323,0.000",
        "app,28,all_renewals,weekly,6,false,2,1,2.000000,6.000000,1.000000,3.000000,0.854,2.563",
        "app,28,all_renewals,(all),,false,5,4,33.000000,6.000000,6.600000,1.200000,11.177,2.563",
        "app,28,paid_to_paid_only,monthly,28,false,3,2,30.000000,0.000000,10.000000,0.000000,9.990,0.000",
        "app,28,paid_to_paid_only,weekly,6,false,2,1,2.000000,6.000000,1.000000,3.000000,0.854,2.563",
        "app,28,paid_to_paid_only,(all),,false,5,3,32.000000,6.000000,6.400000,1.200000,10.844,2.563",
    ]

    static func rowLines(_ rows: [GraceWhatIf.Row]) -> [String] {
        lines(GraceWhatIf.table(rows))
    }

    @Test func everyRowOfTwoProductsBothRenewalTypesAndAFreeTrial() {
        let rows = GraceWhatIf.rows(episodes: Self.episodes.shuffled(), asOf: Self.asOf)
        #expect(GraceWhatIf.table(rows).columns == GraceWhatIf.columns)
        #expect(Self.rowLines(rows) == Self.expected)
    }

    @Test func theSettingsAreApps() {
        #expect(GraceWhatIf.Setting.all.map(\.name) == ["off", "3", "3", "16", "16", "28", "28"])
        let weekly = GraceWhatIf.Setting.all.map { $0.paidRenewalDays(isWeekly: true) }
        #expect(weekly == [0, 3, 3, 6, 6, 6, 6])
        let trial = GraceWhatIf.Setting.all.map { $0.effectiveDays(isWeekly: false, isFreeTrialRenewal: true) }
        #expect(trial == [0, 3, 0, 16, 0, 28, 0])
    }

    @Test func aWeeklyOnlyAppAtSixDaysFitsSixteenAndTwentyEight() {
        let weekly = [
            Self.episode("W1", "weekly", .recovered, afterDays: 2, graceDays: 6, periodDays: 7, stake: 2990),
            Self.episode("W2", "weekly", .expired, afterDays: 60, graceDays: 6, periodDays: 7, stake: 2990),
        ]
        let current = GraceWhatIf.rows(episodes: weekly, asOf: Self.asOf).filter { $0.productId == nil && $0.isCurrent }
        // No free trial: both renewal types fit.
        #expect(current.map(\.setting.name) == ["16", "16", "28", "28"])
    }

    @Test func anAppWithoutGraceFitsOffAndAFreeTrialWithGraceFitsAllRenewals() {
        let none = [Self.episode("M1", "monthly", .expired, afterDays: 60, graceDays: nil, periodDays: 30, stake: 9990)]
        let off = GraceWhatIf.rows(episodes: none, asOf: Self.asOf).filter { $0.productId == nil && $0.isCurrent }
        #expect(off.map(\.setting) == [.off])

        let trialWithGrace = [
            Self.episode("M1", "monthly", .recovered, afterDays: 5, graceDays: 3, periodDays: 30, stake: 9990),
            Self.episode(
                "T1", "monthly", .recovered, afterDays: 1, graceDays: 3, periodDays: nil, stake: 9990, trial: true),
        ]
        let fits = GraceWhatIf.rows(episodes: trialWithGrace, asOf: Self.asOf).filter {
            $0.productId == nil && $0.isCurrent
        }
        #expect(fits.map(\.setting) == [GraceWhatIf.Setting(duration: 3, renewalType: .allRenewals)])

        // A 7-day grace period is no setting of App Store Connect: nothing fits.
        let odd = [Self.episode("M1", "monthly", .expired, afterDays: 60, graceDays: 7, periodDays: 30, stake: 9990)]
        #expect(!GraceWhatIf.rows(episodes: odd, asOf: Self.asOf).contains { $0.isCurrent })
    }

    @Test func amountsNeedOneCurrencyAndAPeriod() {
        var euro = Self.episode("E1", "monthly", .recovered, afterDays: 2, graceDays: 16, periodDays: 30, stake: 900)
        euro.stakeCurrency = "EUR"
        let mixed = GraceWhatIf.rows(episodes: Array(Self.episodes.prefix(4)) + [euro], asOf: Self.asOf)
        // The monthly product's episodes are in two currencies: no amount there nor in (all); weekly keeps its own.
        let sixteen = mixed.filter { $0.setting == GraceWhatIf.Setting(duration: 16, renewalType: .allRenewals) }
        #expect(sixteen.map { $0.figures.paidAmountKept == nil } == [true, false, true])
        // A product without a paid opening transaction has no period, so no amount.
        let trialOnly = [
            Self.episode(
                "T1", "monthly", .recovered, afterDays: 1, graceDays: 3, periodDays: nil, stake: 9990, trial: true)
        ]
        #expect(GraceWhatIf.rows(episodes: trialOnly, asOf: Self.asOf).allSatisfy { $0.figures.paidAmountKept == nil })
    }

    @Test func onlyMatureStandardEpisodesOfAnAppMakeRows() {
        let young = Episode(
            subscription: "Y", productId: "monthly", start: Self.asOf - 10 * Self.day, outcome: .open,
            bundleId: "young.app", openingNotificationUUID: "Y-open")
        let rows = GraceWhatIf.rows(episodes: [young, Self.episodes[5]], asOf: Self.asOf)
        #expect(rows.isEmpty)
        // Two apps: each its own rows, in bundle id order.
        var other = Self.episodes[0]
        other.bundleId = "another.app"
        let apps = GraceWhatIf.rows(episodes: Self.episodes + [other], asOf: Self.asOf)
        #expect(Array(Set(apps.map(\.bundleId))).sorted() == ["another.app", "app"])
        #expect(apps.first?.bundleId == "another.app")
        #expect(apps.count == 7 * 2 + 7 * 3)
    }
}
