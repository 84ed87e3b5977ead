import Analysis
import TestSupport
import Testing

@Suite struct RecoveryCurveTests {
    @Test func withoutCensoringOrCompetitionTheCIFIsThePlainShare() {
        // Recoveries at 1d, 1d, 3d among four episodes, the fourth recovering after day 60:
        //   t=1d: n=4 d=2 r=2 CIF = 2/4 = 0.5, S = 0.5;  t=3d: n=2 d=1 r=1 CIF = 0.5 + 0.5·1/2 = 0.75
        let episodes = [
            episode("a", start: T.march1, .recovered, after: T.day),
            episode("b", start: T.march1, .recovered, after: T.day),
            episode("c", start: T.march1, .recovered, after: 3 * T.day),
            episode("d", start: T.march1, .recovered, after: 61 * T.day),
        ]
        let points = RecoveryCurve.points(episodes: episodes, asOf: T.may1)
        #expect(points.map(\.cifRecovery)[0..<3] == [0.5, 0.5, 0.75])
        #expect(points.map(\.recovered)[0..<3] == [2, 2, 3])
        #expect(points[59].cifRecovery == 0.75)
        #expect(points[59].atRisk == 1)
    }

    @Test func episodesOfOneDurationCountTogetherWhateverTheirOrder() {
        // At 2d a recovery, an expiry and an open episode censored there; a recovery at 5d:
        //   t=2d: n=4 d=2 r=1 → CIF = 1/4, S = 1/2;  t=5d: n=1 d=1 r=1 → CIF = 1/4 + 1/2·1/1 = 3/4.
        let asOf = T.march1 + 5 * T.day
        let episodes = [
            episode("c", start: T.march1 + 3 * T.day, .open),
            episode("b", start: T.march1, .expired, after: 2 * T.day),
            episode("d", start: T.march1, .recovered, after: 5 * T.day),
            episode("a", start: T.march1, .recovered, after: 2 * T.day),
        ]
        for order in [episodes, episodes.reversed()] {
            let points = RecoveryCurve.points(episodes: order, asOf: asOf)
            #expect(points[1] == RecoveryCurve.Point(day: 2, atRisk: 4, recovered: 1, cifRecovery: 0.25))
            #expect(points[4] == RecoveryCurve.Point(day: 5, atRisk: 1, recovered: 2, cifRecovery: 0.75))
            #expect(points[6] == RecoveryCurve.Point(day: 7, atRisk: 0, recovered: 2, cifRecovery: 0.75))
        }
    }

    @Test func emptyScopeGivesZeros() {
        let points = RecoveryCurve.points(episodes: [], asOf: T.may1)
        #expect(points.count == 60)
        #expect(points.allSatisfy { $0.atRisk == 0 && $0.recovered == 0 && $0.cifRecovery == 0 })
    }

    @Test func durationZeroCountsOnDayOne() {
        // A recovery purchased before t0 has duration 0: t=0 ≤ 1·24h.
        let points = RecoveryCurve.points(
            episodes: [episode("z", start: T.march1, .recovered, after: 0), episode("y", start: T.march1, .open)],
            asOf: T.march1 + 2 * T.day
        )
        // t=0: n=2 d=1 r=1 → CIF = 1/2.
        #expect(points[0] == RecoveryCurve.Point(day: 1, atRisk: 2, recovered: 1, cifRecovery: 0.5))
        #expect(points[1] == RecoveryCurve.Point(day: 2, atRisk: 1, recovered: 1, cifRecovery: 0.5))
        #expect(points[2] == RecoveryCurve.Point(day: 3, atRisk: 1, recovered: 1, cifRecovery: 0.5))
        #expect(points[3] == RecoveryCurve.Point(day: 4, atRisk: 0, recovered: 1, cifRecovery: 0.5))
    }
}
