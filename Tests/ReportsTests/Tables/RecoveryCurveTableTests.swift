import Analysis
import Reports
import TestSupport
import Testing

@Suite struct RecoveryCurveTableTests {
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
        let table = RecoveryCurve.table(RecoveryCurve.points(episodes: episodes, asOf: Self.asOf))
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
}
