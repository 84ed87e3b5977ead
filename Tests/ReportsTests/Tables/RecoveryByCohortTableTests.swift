import Analysis
import Reports
import TestSupport
import Testing

@Suite struct RecoveryByCohortTableTests {
    /// March: monthly recovered + expired, annual open + cancelled. April: monthly other + recovered, and an
    /// open episode without a product.
    let episodes = [
        episode("m1", start: T.march1, .recovered, after: 2 * T.day),
        episode("m2", start: T.march1 + T.day, .expired, after: 60 * T.day),
        episode("m3", start: T.march1 + 2 * T.day, .open, product: "annual"),
        episode("m4", start: T.march1 + 3 * T.day, .cancelled, after: 5 * T.day, product: "annual"),
        episode("a1", start: T.april1, .other, after: T.day),
        episode("a2", start: T.april1 + 9 * T.day, .recovered, after: 4 * T.day),
        episode("a3", start: T.april1 + 10 * T.day, .open, product: nil),
    ]

    /// 2024-05-02: m1 (t0 2024-03-01) and m2 (t0 2024-03-02) are mature, t0 + 61 days = 2024-05-01 and 2024-05-02
    /// being ≤ as-of; m3 (t0 + 61 days = 2024-05-03) and later are not.
    let asOf = T.may1 + T.day

    @Test func countsAndRatesWithTotals() {
        let table = RecoveryByCohort.table(RecoveryByCohort.rows(episodes: episodes.shuffled(), asOf: asOf))
        #expect(table.name == "recovery_by_cohort.csv")
        #expect(
            table.columns == [
                "cohort", "product_id", "episodes", "recovered", "expired", "cancelled", "other", "open",
                "recovery_rate", "mature_episodes", "mature_recovered", "mature_recovery_rate",
                "mature_recovery_rate_low", "mature_recovery_rate_high",
            ])
        // recovery_rate = recovered / (recovered + expired + cancelled + other):
        //   2024-03 annual   0 / (0+0+1+0) = 0
        //   2024-03 monthly  1 / (1+1)     = 0.5
        //   2024-03 (all)    1 / 3         = 0.333333
        //   2024-04 ""       0 / 0         → empty (only an open episode)
        //   2024-04 monthly  1 / (1+1)     = 0.5
        //   2024-04 (all)    1 / 2         = 0.5
        //   (all) monthly    2 / (2+1+1)   = 0.5
        //   (all) (all)      2 / (2+1+1+1) = 0.4
        // Mature: m1 (recovered) and m2 (expired), both monthly in 2024-03, so every row that holds them has
        //   mature_recovery_rate 1/2 with the Wilson interval of 1 in 2 (p = 0.5, n = 2):
        //   (0.5 + z²/4 ∓ z·√(0.125 + z²/16)) / (1 + z²/2) = (1.460365 ∓ 1.184265) / 2.920729 = 0.094531, 0.905469;
        //   the other rows have no mature episode: rate and interval empty.
        #expect(
            lines(table) == [
                "2024-03,annual,2,0,0,1,0,1,0.000000,0,0,,,",
                "2024-03,monthly,2,1,1,0,0,0,0.500000,2,1,0.500000,0.094531,0.905469",
                "2024-03,(all),4,1,1,1,0,1,0.333333,2,1,0.500000,0.094531,0.905469",
                "2024-04,,1,0,0,0,0,1,,0,0,,,",
                "2024-04,monthly,2,1,0,0,1,0,0.500000,0,0,,,",
                "2024-04,(all),3,1,0,0,1,1,0.500000,0,0,,,",
                "(all),,1,0,0,0,0,1,,0,0,,,",
                "(all),annual,2,0,0,1,0,1,0.000000,0,0,,,",
                "(all),monthly,4,2,1,0,1,0,0.500000,2,1,0.500000,0.094531,0.905469",
                "(all),(all),7,2,1,1,1,2,0.400000,2,1,0.500000,0.094531,0.905469",
            ])
    }

    @Test func matureFromExactly61DaysAfterTheStart() {
        // t0 + 61 × 24 h ≤ as-of: mature at exactly 61 days, not 1 ms earlier. One mature recovery of one:
        //   rate 1, Wilson low 1/(1 + z²) = 1/4.841459 = 0.206549, high 1.
        let asOf = T.may1
        let episodes = [
            episode("ripe", start: asOf - 61 * T.day, .recovered, after: 3 * T.day),
            episode("young", start: asOf - 61 * T.day + 1, .recovered, after: 3 * T.day),
        ]
        #expect(episodes.map { $0.isMature(asOf: asOf) } == [true, false])
        let total = lines(RecoveryByCohort.table(RecoveryByCohort.rows(episodes: episodes, asOf: asOf))).last
        #expect(total == "(all),(all),2,2,0,0,0,0,1.000000,1,1,1.000000,0.206549,1.000000")
    }

    @Test func cohortsByISOWeek() {
        // 2024-03-01…03 (Fri–Sun) are week 09, 2024-03-04 is week 10; 2024-04-01 (Mon) is week 14,
        // 2024-04-10/11 week 15.
        let table = RecoveryByCohort.table(RecoveryByCohort.rows(episodes: episodes, asOf: asOf, granularity: .week))
        #expect(
            table.rows.map { $0[0].formatted + "," + $0[1].formatted + "," + $0[2].formatted } == [
                "2024-W09,annual,1", "2024-W09,monthly,2", "2024-W09,(all),3",
                "2024-W10,annual,1", "2024-W10,(all),1",
                "2024-W14,monthly,1", "2024-W14,(all),1",
                "2024-W15,,1", "2024-W15,monthly,1", "2024-W15,(all),2",
                "(all),,1", "(all),annual,2", "(all),monthly,4", "(all),(all),7",
            ])
    }

    @Test func noEpisodesLeavesOnlyTheTotalWithAnEmptyRate() {
        #expect(
            lines(RecoveryByCohort.table(RecoveryByCohort.rows(episodes: [], asOf: asOf))) == [
                "(all),(all),0,0,0,0,0,0,,0,0,,,"
            ])
    }
}
