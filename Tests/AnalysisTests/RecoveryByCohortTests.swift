import Analysis
import Testing
import TestSupport

@Suite struct RecoveryByCohortTests {
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

    @Test func countsAndRatesWithTotals() {
        let table = RecoveryByCohort.table(episodes: episodes.shuffled())
        #expect(table.name == "recovery_by_cohort.csv")
        #expect(
            table.columns == [
                "cohort", "product_id", "episodes", "recovered", "expired", "cancelled", "other", "open",
                "recovery_rate",
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
        #expect(
            lines(table) == [
                "2024-03,annual,2,0,0,1,0,1,0.000000",
                "2024-03,monthly,2,1,1,0,0,0,0.500000",
                "2024-03,(all),4,1,1,1,0,1,0.333333",
                "2024-04,,1,0,0,0,0,1,",
                "2024-04,monthly,2,1,0,0,1,0,0.500000",
                "2024-04,(all),3,1,0,0,1,1,0.500000",
                "(all),,1,0,0,0,0,1,",
                "(all),annual,2,0,0,1,0,1,0.000000",
                "(all),monthly,4,2,1,0,1,0,0.500000",
                "(all),(all),7,2,1,1,1,2,0.400000",
            ])
    }

    @Test func cohortsByISOWeek() {
        // 2024-03-01…03 (Fri–Sun) are week 09, 2024-03-04 is week 10; 2024-04-01 (Mon) is week 14,
        // 2024-04-10/11 week 15.
        let table = RecoveryByCohort.table(episodes: episodes, granularity: .week)
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
        #expect(lines(RecoveryByCohort.table(episodes: [])) == ["(all),(all),0,0,0,0,0,0,"])
    }
}
