import Analysis
import Testing
import TestSupport

@Suite struct RecoveryCurveTests {
    /// Six episodes, durations in days: A recovered 2, B expired 3, C open (censored) 4, D recovered 5,
    /// E cancelled 5, F recovered 10.
    static let asOf = T.may1
    let episodes = [
        episode("A", start: T.march1, .recovered, after: 2 * T.day),
        episode("B", start: T.march1, .expired, after: 3 * T.day),
        episode("C", start: asOf - 4 * T.day, .open),
        episode("D", start: T.march1 + T.day, .recovered, after: 5 * T.day),
        episode("E", start: T.april1, .cancelled, after: 5 * T.day),
        episode("F", start: T.april1, .recovered, after: 10 * T.day),
    ]

    // Aalen–Johansen by hand (n = durations ≥ t, d = ended at t, r = recovered at t):
    //   t=2d:  n=6 d=1 r=1  CIF = 0 + 1·1/6            = 1/6   = 0.166667   S = 1·(1−1/6)   = 5/6
    //   t=3d:  n=5 d=1 r=0  CIF = 1/6                                        S = 5/6·(1−1/5) = 2/3
    //   t=4d:  censored only, no step
    //   t=5d:  n=3 d=2 r=1  CIF = 1/6 + 2/3·1/3        = 7/18  = 0.388889   S = 2/3·(1−2/3) = 2/9
    //   t=10d: n=1 d=1 r=1  CIF = 7/18 + 2/9·1/1       = 11/18 = 0.611111   S = 0
    // The naive recovered/total is 3/6 = 0.5: censoring C and the competing B and E make the CIF differ.
    // at_risk(k) = durations ≥ (k−1)·24h; recovered(k) = recoveries with duration ≤ k·24h.
    @Test func aalenJohansenWithCensoringAndCompetingEvents() {
        let table = RecoveryCurve.table(episodes: episodes, asOf: Self.asOf)
        #expect(table.name == "recovery_curve.csv")
        #expect(table.columns == ["day", "at_risk", "recovered", "cif_recovery"])
        #expect(table.rows.count == 60)
        let shown = lines(table)
        #expect(
            Array(shown[0..<12]) == [
                "1,6,0,0.000000",  // no event ≤ 1d
                "2,6,1,0.166667",  // A at exactly 2d counts on day 2
                "3,6,1,0.166667",  // A (2d ≥ 2d) is still at risk at the start of day 3
                "4,5,1,0.166667",
                "5,4,2,0.388889",
                "6,3,2,0.388889",
                "7,1,2,0.388889",
                "8,1,2,0.388889",
                "9,1,2,0.388889",
                "10,1,3,0.611111",
                "11,1,3,0.611111",  // F (10d ≥ 10d) at risk at the start of day 11
                "12,0,3,0.611111",
            ])
        #expect(shown[59] == "60,0,3,0.611111")
        let naive = Double(3) / Double(6)
        #expect(RecoveryCurve.points(episodes: episodes, asOf: Self.asOf)[59].cifRecovery != naive)
    }

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
