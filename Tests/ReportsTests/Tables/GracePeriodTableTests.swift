import Analysis
import Reports
import TestSupport
import Testing

@Suite struct GracePeriodTableTests {
    static let asOf = T.may1 + 5 * T.day
    let march = T.march1
    let april = T.april1

    /// Grace episodes (and one without grace, which the grace tables leave out).
    var episodes: [Episode] {
        [
            // March
            episode(
                "G1", start: march, .recovered, after: 3 * T.day, grace: march + 16 * T.day, price: 9990,
                currency: "USD"),
            episode(
                "G2", start: march, .recovered, after: 20 * T.day, grace: march + 16 * T.day, price: 9990,
                currency: "USD"),
            episode("G3", start: march, .expired, after: 60 * T.day, grace: march + 16 * T.day),
            episode("N1", start: march, .recovered, after: T.day, price: 9990, currency: "USD"),
            // April
            episode("G4", start: april + 10 * T.day, .open, grace: april + 26 * T.day),  // grace over by as-of
            episode("G5", start: april + 25 * T.day, .open, grace: april + 41 * T.day),  // grace runs past as-of
            episode("G6", start: april, .cancelled, after: 2 * T.day, grace: april + 16 * T.day),
            episode("G7", start: april + 20 * T.day, .open, grace: .some(nil)),  // grace end unknown
            episode(
                "G8", start: april, .recovered, after: 16 * T.day, grace: april + 16 * T.day, price: 990,
                currency: "USD"),
            episode("G9", start: april, .other, after: 4 * T.day, grace: april + 16 * T.day),
        ]
    }

    // Decided = closed, or open with grace_end ≤ as-of (2024-05-06):
    //   March: G1 saved, G2 after grace, G3 expired; decided 3       → save_rate 1/3 = 0.333333
    //   April: G8 saved (recovered exactly at grace_end), G6 cancelled, G9 other, G4 G5 G7 open;
    //          decided G4 G6 G8 G9 = 4 (G5's grace ends after as-of, G7's is unknown) → 1/4 = 0.25
    //   Total: 2 saved / 7 decided = 0.285714 (not 2/9 = 0.222222 over all grace episodes)
    @Test func saveRateCountsOnlyDecidedEpisodes() {
        let table = GracePeriod.table(GracePeriod.rows(episodes: episodes, asOf: Self.asOf))
        #expect(table.name == "grace_period.csv")
        #expect(
            table.columns == [
                "cohort", "grace_episodes", "saved_in_grace", "recovered_after_grace", "expired", "cancelled",
                "other", "open", "save_rate",
            ])
        #expect(
            lines(table) == [
                "2024-03,3,1,1,1,0,0,0,0.333333",
                "2024-04,6,1,0,0,1,1,3,0.250000",
                "(all),9,2,1,1,1,1,3,0.285714",
            ])
    }

    @Test func saveRateIsEmptyWhenNothingIsDecided() {
        let table = GracePeriod.table(
            GracePeriod.rows(
                episodes: [episode("G5", start: T.april1, .open, grace: T.april1 + 16 * T.day)],
                asOf: T.april1 + 10 * T.day
            ))
        #expect(lines(table) == ["2024-04,1,0,0,0,0,0,1,", "(all),1,0,0,0,0,0,1,"])
        #expect(lines(GracePeriod.table(GracePeriod.rows(episodes: [], asOf: T.may1))) == ["(all),0,0,0,0,0,0,0,"])
    }

    @Test func unknownGraceEndCountsInItsOutcomeButInNoSaveRate() {
        // U1 recovered and U2 expired with a grace period whose end is unknown: in grace_episodes and their
        // outcome columns (U1 as recovered_after_grace), closed, but in no save_rate denominator. K1 (known end,
        // saved) alone is decided: 1/1.
        let episodes = [
            episode("U1", start: T.april1, .recovered, after: 2 * T.day, grace: .some(nil)),
            episode("U2", start: T.april1, .expired, after: 60 * T.day, grace: .some(nil)),
            episode("K1", start: T.april1, .recovered, after: T.day, grace: T.april1 + 3 * T.day),
        ]
        #expect(episodes.map { $0.isInSaveRate(asOf: Self.asOf) } == [false, false, true])
        #expect(
            lines(GracePeriod.table(GracePeriod.rows(episodes: episodes, asOf: Self.asOf))) == [
                "2024-04,3,1,1,1,0,0,0,1.000000",
                "(all),3,1,1,1,0,0,0,1.000000",
            ])
        let unknownOnly = GracePeriod.table(GracePeriod.rows(episodes: Array(episodes.prefix(2)), asOf: Self.asOf))
        #expect(lines(unknownOnly).last == "(all),2,0,1,1,0,0,0,")
    }

    // Saved episodes: G1 9990 + G8 990 milliunits USD = 10 980 → "10.980" (integer arithmetic);
    // G2 recovered after grace adds nothing.
    @Test func revenuePerCurrencyNeverSummedAcross() {
        let extra = [
            episode(
                "E1", start: T.april1, .recovered, after: T.day, grace: T.april1 + 3 * T.day, price: 4990,
                currency: "EUR"),
            // Saved, but the price is missing: counted as an episode, adds 0.
            episode("E2", start: T.april1, .recovered, after: T.day, grace: T.april1 + 3 * T.day, currency: "EUR"),
            episode(
                "J1", start: T.april1, .recovered, after: T.day, grace: T.april1 + 3 * T.day, price: 120_000,
                currency: "JPY"),
        ]
        let table = GraceRevenue.table(GraceRevenue.rows(episodes: episodes + extra))
        #expect(table.name == "grace_revenue.csv")
        #expect(table.columns == ["currency", "saved_episodes", "revenue_saved"])
        #expect(lines(table) == ["EUR,2,4.990", "JPY,1,120.000", "USD,2,10.980"])
    }

    @Test func revenueThatOverflowsIsEmpty() {
        let huge = Int64.max / 2 + 1
        let saved = (1...2).map { index in
            episode(
                "H\(index)", start: T.april1, .recovered, after: T.day, grace: T.april1 + 3 * T.day, price: huge,
                currency: "USD")
        }
        #expect(lines(GraceRevenue.table(GraceRevenue.rows(episodes: saved))) == ["USD,2,"])
    }

    @Test func graceVersusNoGrace() {
        let comparison = GraceComparison(episodes: episodes)
        // With grace: recovered G1 G2 G8, expired G3, cancelled G6, other G9 → 3/6 = 0.5; without: N1 → 1/1.
        #expect(comparison.withGrace.episodes == 9)
        #expect(comparison.withGrace.recoveryRate == 0.5)
        #expect(comparison.withoutGrace.episodes == 1)
        #expect(comparison.withoutGrace.recoveryRate == 1)
        #expect(GraceComparison(episodes: []).withGrace.recoveryRate == nil)
    }
}
