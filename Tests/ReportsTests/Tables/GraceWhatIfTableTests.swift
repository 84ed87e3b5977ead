import Analysis
import Reports
import TestSupport
import Testing

@Suite struct GraceWhatIfTableTests {
    let t0 = T.march1
    let asOf = T.july1

    /// Two products and episodes without one; as of July 1 an episode is mature when it started by May 1.
    ///
    /// - no product (the empty cell, first): one mature episode recovered by retry after 2 days and 8 hours
    ///   (2.333… days), no grace: G 0 current.
    /// - `b.weekly`: one mature episode expired, grace 6 days: G 6 current.
    /// - `a.monthly` sorts after the empty product and before `b.weekly`: one open episode, not mature, grace 3
    ///   days: every count 0, the per-episode cells empty.
    ///
    /// No product: 2.333 days ≤ G for G 3 to 28, so in grace with 2.333333 paid days (per episode the same); G 0
    /// keeps nothing and gives nothing. `b.weekly`: G free days at every G, per episode the same.
    @Test func rowsByProductThenLengthWithSixDecimals() {
        let episodes = [
            episode("W", start: t0, .expired, after: 60 * T.day, product: "b.weekly", grace: t0 + 6 * T.day),
            episode("M", start: T.june1, .open, product: "a.monthly", grace: T.june1 + 3 * T.day),
            episode("P", start: t0, .recovered, after: 2 * T.day + 8 * T.hour, product: nil),
        ]
        let table = GraceWhatIf.table(GraceWhatIf.rows(episodes: episodes, asOf: asOf))
        #expect(table.name == "grace_whatif.csv")
        #expect(
            table.columns == [
                "product_id", "grace_days", "current", "mature_episodes", "recovered_in_grace", "paid_days_kept",
                "free_access_days", "paid_days_kept_per_episode", "free_access_days_per_episode",
            ])
        #expect(
            lines(table) == [
                ",0,true,1,0,0.000000,0.000000,0.000000,0.000000",
                ",3,false,1,1,2.333333,0.000000,2.333333,0.000000",
                ",6,false,1,1,2.333333,0.000000,2.333333,0.000000",
                ",16,false,1,1,2.333333,0.000000,2.333333,0.000000",
                ",28,false,1,1,2.333333,0.000000,2.333333,0.000000",
                "a.monthly,0,false,0,0,0.000000,0.000000,,",
                "a.monthly,3,true,0,0,0.000000,0.000000,,",
                "a.monthly,6,false,0,0,0.000000,0.000000,,",
                "a.monthly,16,false,0,0,0.000000,0.000000,,",
                "a.monthly,28,false,0,0,0.000000,0.000000,,",
                "b.weekly,0,false,1,0,0.000000,0.000000,0.000000,0.000000",
                "b.weekly,3,false,1,0,0.000000,3.000000,0.000000,3.000000",
                "b.weekly,6,true,1,0,0.000000,6.000000,0.000000,6.000000",
                "b.weekly,16,false,1,0,0.000000,16.000000,0.000000,16.000000",
                "b.weekly,28,false,1,0,0.000000,28.000000,0.000000,28.000000",
            ])
    }

    @Test func noEpisodesNoRows() {
        #expect(GraceWhatIf.table(GraceWhatIf.rows(episodes: [], asOf: asOf)).rows.isEmpty)
    }
}
