import Analysis
import Testing

/// The Kaplan–Meier share of customers back by a day after their expiry, worked out by hand.
@Suite struct ReturnSurvivalTests {
    static let day: Int64 = 86_400_000

    static func returned(_ days: Int64) -> ReturnSurvival.FollowUp { .init(time: days * day, returned: true) }
    static func censored(_ days: Int64) -> ReturnSurvival.FollowUp { .init(time: days * day, returned: false) }

    @Test func censoringLowersTheRiskSetNotTheSurvival() {
        // Back on day 10 and day 40; cut at day 20 and day 100 (the as-of time); back on day 200.
        // Day 10: 5 at risk, 1 back: S = 4/5. Day 20: one censored, 3 left. Day 40: 3 at risk, 1 back:
        // S = 4/5 · 2/3 = 8/15. Day 100: one censored, 1 left. Day 200: 1 at risk, 1 back: S = 0.
        let survival = ReturnSurvival([
            Self.returned(10), Self.censored(20), Self.returned(40), Self.censored(100), Self.returned(200),
        ])
        let shares = survival.returned(by: [30 * Self.day, 90 * Self.day, 180 * Self.day, 200 * Self.day])
        #expect(shares[0].map { abs($0 - 1.0 / 5) < 1e-12 } == true)
        #expect(shares[1].map { abs($0 - 7.0 / 15) < 1e-12 } == true)
        #expect(shares[2].map { abs($0 - 7.0 / 15) < 1e-12 } == true, "no return between day 40 and day 180")
        #expect(shares[3] == 1)
    }

    @Test func atATieReturnsComeBeforeCensorings() {
        // Day 30: one back and one cut. The cut one is still at risk then: S = 1 − 1/2.
        let tie = ReturnSurvival([Self.returned(30), Self.censored(30)])
        #expect(tie.returned(by: [30 * Self.day]) == [0.5])
        // The value at t counts the returns at t.
        #expect(ReturnSurvival([Self.returned(30), Self.censored(90)]).returned(by: [30 * Self.day]) == [0.5])
    }

    @Test func undefinedWhereNoFollowUpReaches() {
        let short = ReturnSurvival([Self.returned(5), Self.censored(29)])
        #expect(short.returned(by: [29 * Self.day, 30 * Self.day]) == [0.5, nil])
        #expect(ReturnSurvival().returned(by: [0, 30 * Self.day]) == [nil, nil])
        // Nobody came back: 0, defined as far as the follow-up goes.
        #expect(ReturnSurvival([Self.censored(200)]).returned(by: [180 * Self.day]) == [0])
    }

    @Test func greenwoodStandardErrorByHand() {
        // Back on day 1 and day 2, cut on day 2 and day 3. Day 1: 4 at risk, 1 back: S = 3/4, Σ d/(n(n−d)) = 1/12.
        // Day 2: 3 at risk (the cut one still is), 1 back: S = 1/2, Σ = 1/12 + 1/6 = 1/4; se = S·√Σ = 1/4.
        let survival = ReturnSurvival([Self.returned(1), Self.returned(2), Self.censored(2), Self.censored(3)])
        #expect(
            survival.standardError(at: 1 * Self.day).map { abs($0 - 0.75 * (1.0 / 12).squareRoot()) < 1e-12 } == true)
        #expect(survival.standardError(at: 2 * Self.day).map { abs($0 - 0.25) < 1e-12 } == true)
        #expect(survival.standardError(at: 3 * Self.day).map { abs($0 - 0.25) < 1e-12 } == true)
        #expect(survival.standardError(at: 4 * Self.day) == nil, "past the longest follow-up")
        // Everyone back: S = 0, no error to give.
        #expect(ReturnSurvival([Self.returned(1)]).standardError(at: Self.day) == nil)
    }

    @Test func returnsGroupByMonthOfTheExpiry() {
        // Two expiries in January (one back after 10 days), one in February never back, as of March 31.
        let asOf = Int64(1_743_465_599_000)  // 2025-03-31T23:59:59Z
        let january = Int64(1_736_640_000_000)  // 2025-01-12
        let february = Int64(1_739_404_800_000)  // 2025-02-13
        var tally = Returns.Tally(asOf: asOf)
        tally.add(.init(subscription: "a", end: january, returnedAt: january + 10 * Self.day))
        tally.add(.init(subscription: "b", end: january, returnedAt: nil))
        tally.add(.init(subscription: "c", end: february, returnedAt: nil))
        tally.add(.init(subscription: "d", end: asOf + 1, returnedAt: nil))
        let rows = tally.rows
        #expect(rows.map(\.group) == ["2025-01", "2025-02", "(all)"])
        #expect(rows.map(\.expired) == [2, 1, 3], "the expiry after the as-of time is left out")
        #expect(rows.map(\.returned) == [1, 0, 1])
        #expect(rows[0].returned30d == 0.5)
        #expect(rows[1].returned30d == 0)
        #expect(rows[1].returned180d == nil, "February's expiry is watched 46 days")
        // (all): day 10, 3 at risk, 1 back: 1/3.
        #expect(rows[2].returned30d.map { abs($0 - 1.0 / 3) < 1e-12 } == true)
    }
}
