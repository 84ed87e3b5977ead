import Analysis
import TestSupport
import Testing

/// METRICS.md v2.2, "A grace change, evaluated": the detection of a change from a month-by-month history made for it,
/// a stated change, and a difference in differences over four small groups, each worked out by hand.
@Suite struct GraceChangeTests {
    static let change = T.july1
    static let asOf = T.july1 + 200 * T.day

    /// A mature standard episode of `product` in app `a`, starting `day` days after the change (negative: before),
    /// lasting `days` days, with a grace period of `grace` days (nil: none).
    static func episode(
        _ subscription: String, _ product: String, day: Int64, grace: Int?, outcome: Episode.Outcome, days: Int64,
        bundleId: String = "a", periodDays: Int? = 30
    ) -> Episode {
        let start = change + day * T.day + T.hour
        return Episode(
            subscription: subscription, productId: product, start: start, hasGrace: grace != nil,
            graceEnd: grace.map { start + Int64($0) * T.day }, end: start + days * T.day, outcome: outcome,
            bundleId: bundleId, openingNotificationUUID: "\(subscription)-\(day)", periodDays: periodDays)
    }

    /// The four groups of the hand-worked example.
    static let groups: [Episode] = [
        // Treated before, 16-day grace: recovered on day 3 (2 days, in grace: 2 paid days), recovered after 20 days
        // (past grace: 16 free days), expired (60 days: 16 free), expired without grace (0).
        // R0 = 2/4 = 0.5, P0 = 2/4 = 0.5, F0 = 32/4 = 8.
        episode("t1", "monthly", day: -80, grace: 16, outcome: .recovered, days: 2),
        episode("t2", "monthly", day: -60, grace: 16, outcome: .recovered, days: 20),
        episode("t3", "monthly", day: -40, grace: 16, outcome: .expired, days: 60),
        episode("t4", "monthly", day: -1, grace: nil, outcome: .expired, days: 60),
        // Treated after, 28 days: recovered after 20 days (paid 20), expired (free 28).
        // R1 = 0.5, P1 = 10, F1 = 14.
        episode("t5", "monthly", day: 0, grace: 28, outcome: .recovered, days: 20),
        episode("t6", "monthly", day: 89, grace: 28, outcome: .expired, days: 60),
        // Comparison before, 6 days: recovered after 1 day (paid 1), expired (free 6). R = 0.5, P = 0.5, F = 3.
        episode("k1", "weekly", day: -90, grace: 6, outcome: .recovered, days: 1, periodDays: 7),
        episode("k2", "weekly", day: -10, grace: 6, outcome: .expired, days: 60, periodDays: 7),
        // Comparison after: recovered after 3 days (paid 3), after 10 (free 6), expired (free 6).
        // R = 2/3, P = 1, F = 4.
        episode("k3", "weekly", day: 5, grace: 6, outcome: .recovered, days: 3, periodDays: 7),
        episode("k4", "weekly", day: 30, grace: 6, outcome: .recovered, days: 10, periodDays: 7),
        episode("k5", "weekly", day: 60, grace: 6, outcome: .expired, days: 60, periodDays: 7),
        // Outside both windows: in neither group.
        episode("t7", "monthly", day: 90, grace: 28, outcome: .expired, days: 60),
        episode("k6", "weekly", day: -91, grace: 6, outcome: .recovered, days: 1, periodDays: 7),
    ]

    static let handMade = GraceChange.Change(
        bundleId: "a", date: change, settingBefore: "16", settingAfter: "28",
        treated: [GraceChange.Product(bundleId: "a", productId: "monthly")],
        candidates: [GraceChange.Product(bundleId: "a", productId: "weekly")])

    static func rows(_ episodes: [Episode], change: GraceChange.Change = handMade) -> [GraceChange.Row] {
        var evaluation = GraceChange.Evaluation(changes: [change], asOf: asOf)
        for episode in episodes { evaluation.add(episode) }
        return evaluation.rows()
    }

    @Test func theDifferenceInDifferencesOfFourSmallGroups() throws {
        let row = try #require(Self.rows(Self.groups).first)
        #expect(row.products == ["monthly"])
        #expect(row.comparison == ["weekly"])
        #expect(row.episodesBefore == 4)
        #expect(row.episodesAfter == 2)
        let recovered = row.figures[0]
        #expect(recovered.name == .recovered)
        #expect(recovered.before == 0.5)
        #expect(recovered.after == 0.5)
        #expect(recovered.comparisonBefore == 0.5)
        #expect(try abs(#require(recovered.comparisonAfter) - 2.0 / 3) < 1e-12)
        // (0.5 − 0.5) − (2/3 − 0.5) = −1/6.
        #expect(try abs(#require(recovered.did) + 1.0 / 6) < 1e-12)
        // (10 − 0.5) − (1 − 0.5) = 9 paid days; (14 − 8) − (4 − 3) = 5 free days.
        #expect(try abs(#require(row.figures[1].did) - 9) < 1e-12)
        #expect(try abs(#require(row.figures[2].did) - 5) < 1e-12)
        #expect(row.figures[1].before == 0.5 && row.figures[1].after == 10)
        #expect(row.figures[2].comparisonBefore == 3 && row.figures[2].comparisonAfter == 4)
        for figure in row.figures {
            let interval = try #require(figure.interval)
            let did = try #require(figure.did)
            #expect(interval.low <= did && did <= interval.high, "\(figure.name)")
            #expect(interval.low < interval.high, "\(figure.name): resamples of 2 to 4 subscriptions vary")
        }
        // No episode 180 days earlier: the data do not reach back.
        #expect(row.figures.allSatisfy { $0.placeboDid == nil && $0.placeboInterval == nil })
    }

    @Test func theBootstrapIsTheSameRunToRunAndWhateverTheEpisodesOrder() {
        let once = Self.rows(Self.groups)
        #expect(once == Self.rows(Self.groups))
        #expect(once == Self.rows(Self.groups.reversed()))
        #expect(once == Self.rows(Self.groups.shuffled()))
    }

    @Test func withoutAComparisonTheEstimateIsTheTreatedProductsOwnChange() throws {
        var change = Self.handMade
        change.candidates = []
        let row = try #require(Self.rows(Self.groups, change: change).first)
        #expect(row.comparison.isEmpty)
        #expect(row.figures.allSatisfy { $0.comparisonBefore == nil && $0.comparisonAfter == nil })
        // t1 − t0: 0, 9.5 paid days, 6 free days.
        #expect(row.figures.map(\.did) == [0, 9.5, 6])
    }

    @Test func aCandidateWithoutMatureEpisodesInBothWindowsIsNoComparison() throws {
        let beforeOnly = Self.groups.filter { !($0.productId == "weekly" && $0.start >= Self.change) }
        let row = try #require(Self.rows(beforeOnly).first)
        #expect(row.comparison.isEmpty)
        #expect(row.figures[0].did == 0)
    }

    @Test func thePlaceboRepeatsTheEstimate180DaysEarlier() throws {
        // The four groups alone (the two episodes outside the windows would fall in the placebo's), and again 180
        // days earlier, where nothing changed: each subscription's twin.
        let groups = Self.groups.filter { !["t7", "k6"].contains($0.subscription) }
        let earlier = groups.map { episode -> Episode in
            var twin = episode
            twin.subscription += "-earlier"
            twin.start -= 180 * T.day
            twin.graceEnd = twin.graceEnd.map { $0 - 180 * T.day }
            twin.end = twin.end.map { $0 - 180 * T.day }
            return twin
        }
        // The data reach back to the placebo's before-window: an episode of another product 400 days before.
        let reach = Self.episode("o1", "other", day: -400, grace: nil, outcome: .expired, days: 60)
        #expect(Self.rows(groups + earlier).first?.figures.allSatisfy { $0.placeboDid == nil } == true)
        let row = try #require(Self.rows(groups + earlier + [reach]).first)
        // The estimate itself is as before: the earlier twins are outside its windows.
        #expect(try abs(#require(row.figures[1].did) - 9) < 1e-12)
        // The placebo's groups are the same episodes, so its estimate is the estimate's.
        #expect(try abs(#require(row.figures[1].placeboDid) - 9) < 1e-12)
        #expect(try abs(#require(row.figures[0].placeboDid) + 1.0 / 6) < 1e-12)
        #expect(row.figures.allSatisfy { $0.placeboInterval != nil })
    }

    // MARK: Detection

    /// `count` episodes of `product` in the month starting `monthStart`, one a day from the 2nd, each with a grace
    /// period of `grace` days (nil: none) dated by a notification.
    static func month(
        _ product: String, _ monthStart: Int64, count: Int, grace: Int?, bundleId: String = "a", periodDays: Int = 30
    ) -> [Episode] {
        (0..<count).map { index in
            let start = monthStart + Int64(1 + index) * T.day
            return Episode(
                subscription: "\(product)-\(monthStart)-\(index)", productId: product, start: start,
                hasGrace: grace != nil, graceEnd: grace.map { start + Int64($0) * T.day }, end: start + T.day,
                outcome: .recovered, bundleId: bundleId, openingNotificationUUID: "\(product)-\(start)",
                periodDays: periodDays)
        }
    }

    static let months = [T.march1, T.april1, T.may1, T.june1, T.july1]

    /// March to July 2024: `monthly` at 16 days, then 28 from May; `weekly` at 6 throughout; `sparse` with too few
    /// episodes to have a length.
    static var history: [Episode] {
        months.enumerated().flatMap { index, start in
            month("monthly", start, count: 20, grace: index < 2 ? 16 : 28)
                + month("weekly", start, count: 25, grace: 6, periodDays: 7)
                + month("sparse", start, count: 19, grace: index < 2 ? 3 : 28)
        }
    }

    static func changes(_ episodes: [Episode], stated: [GraceChange.Stated] = []) -> [GraceChange.Change] {
        var months = GraceChange.Months()
        for episode in episodes { months.add(episode) }
        return months.changes(stated: stated)
    }

    @Test func aChangeOfOneProductIsFoundInTheMonthItsLengthMoves() throws {
        let changes = Self.changes(Self.history)
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.bundleId == "a")
        // The earliest t0 in May of a 28-day episode: May 2nd.
        #expect(change.date == T.may1 + T.day)
        #expect(change.treated == [GraceChange.Product(bundleId: "a", productId: "monthly")])
        // `sparse` never has 20 episodes in a month; `weekly` kept 6 days.
        #expect(change.candidates == [GraceChange.Product(bundleId: "a", productId: "weekly")])
        // 16 days and a weekly 6 are explained by the 16-day setting only; 28 and 6 by 28 only.
        #expect(change.settingBefore == "16")
        #expect(change.settingAfter == "28")
    }

    @Test func aMonthOfTwentyEpisodesWithoutGraceHasLength0AndDatesAChangeToItsFirstDay() throws {
        let episodes =
            Self.month("monthly", T.march1, count: 20, grace: 16)
            + Self.month("monthly", T.april1, count: 20, grace: nil)
        let change = try #require(Self.changes(episodes).first)
        #expect(change.date == T.april1)
        #expect(change.settingBefore == "16")
        #expect(change.settingAfter == "off")
        // Nineteen without grace give April no length: nothing changes.
        let fewer =
            Self.month("monthly", T.march1, count: 20, grace: 16)
            + Self.month("monthly", T.april1, count: 19, grace: nil)
        #expect(Self.changes(fewer).isEmpty)
    }

    @Test func aMonthWithoutALengthDoesNotBreakAComparisonProduct() throws {
        // `weekly` has 5 episodes in April, too few for a length: its months with one still all say 6.
        let episodes =
            Self.history.filter { !($0.productId == "weekly" && $0.start >= T.april1 && $0.start < T.may1) }
            + Self.month("weekly", T.april1, count: 5, grace: 6, periodDays: 7)
        let change = try #require(Self.changes(episodes).first)
        #expect(change.candidates == [GraceChange.Product(bundleId: "a", productId: "weekly")])
    }

    @Test func aStatedChangeReplacesTheDetectedOneOfItsAppAndMonth() throws {
        let stated = try #require(GraceChange.Stated(argument: "a=2024-05-10:28"))
        #expect(stated.date == T.may1 + 9 * T.day)
        let changes = Self.changes(Self.history, stated: [stated])
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.date == T.may1 + 9 * T.day)
        // The weekly product keeps 6 days under 28: only the monthly one is treated.
        #expect(change.treated == [GraceChange.Product(bundleId: "a", productId: "monthly")])
        #expect(change.settingAfter == "28")
        // Another app's statement leaves app a's detected change alone.
        let other = try #require(GraceChange.Stated(argument: "b=2024-05-10:off"))
        let both = Self.changes(Self.history, stated: [other])
        #expect(both.map(\.bundleId) == ["a", "b"])
        #expect(both[0].date == T.may1 + T.day)
        #expect(both[1].treated.isEmpty)
    }

    @Test(arguments: ["a=2024-02-30:28", "a=2024-05-10:20", "=2024-05-10:28", "a:2024-05-10", "a=2024-5-10:28", ""])
    func aStatedChangeThatIsNotOneIsRefused(_ argument: String) {
        #expect(GraceChange.Stated(argument: argument) == nil)
    }

    @Test func aBundleIdMayHoldAnEqualsSign() throws {
        let stated = try #require(GraceChange.Stated(argument: "a=b=2024-05-10:off"))
        #expect(stated.bundleId == "a=b")
        #expect(stated.setting == .off)
    }
}
