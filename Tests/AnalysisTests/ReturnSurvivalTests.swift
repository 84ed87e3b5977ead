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
}
