import Analysis
import PGClient

extension EpisodeAnalyzer {
    /// The session's temporary table of changed grace decisions, in the order ``inferGraceEnds(environment:)``
    /// writes its rows; `grace_end_ms` is Unix milliseconds.
    private static let graceEnds = PGTable(
        "churn_grace_ends",
        [
            "original_transaction_id": .text, "sequence": .integer, "grace_end_ms": .bigint,
            "grace_end_inferred": .boolean, "saved_in_grace": .boolean, "grace_days": .integer,
        ]
    )

    /// Dates the stored grace periods Apple announced without a `gracePeriodExpiresDate` (METRICS.md, "Grace without
    /// a date"), as reports date them at read time (``EpisodeDataset/finish(_:asOf:graceLengths:)``): Swift decides
    /// each one's `grace_end`, `grace_end_inferred`, `saved_in_grace` and `grace_days`
    /// (``GraceLengths/inferGraceEnd(of:)``), and SQL only writes them.
    ///
    /// The lengths come from every dated grace episode of the environment, so a rebuild of a few subscriptions can
    /// change the grace end of any undated one: all of them are looked at, in the rebuild's transaction.
    /// - Returns: the episodes whose stored grace end changed.
    @discardableResult
    func inferGraceEnds(environment: String) throws -> Int {
        let columns = StoredEpisodeColumns(withGraceDecisions: true)
        let undated = try writer.execute(
            """
            SELECT \(columns.selectList)
            FROM billing_episodes
            WHERE environment = $1 AND has_grace AND (grace_end IS NULL OR grace_end_inferred)
            """,
            [environment]
        ).rows
        guard !undated.isEmpty, let decisions = columns.graceDecisions else { return 0 }
        let lengths = try GraceLengths.stored(environment: environment, connection: writer)
        var changes = CopyText()
        var changed = 0
        for row in undated {
            var episode = try columns.episode(row, environment: environment)
            let stored = (
                graceEnd: episode.graceEnd, inferred: episode.graceEndInferred,
                saved: try row.decode(Bool.self, decisions.savedInGrace),
                days: try row.decode(Int?.self, decisions.graceDays)
            )
            lengths.inferGraceEnd(of: &episode)
            guard
                (episode.graceEnd, episode.graceEndInferred, episode.isSavedInGrace, episode.graceDays)
                    != (stored.graceEnd, stored.inferred, stored.saved, stored.days)
            else { continue }
            try changes.append(episode.subscription)
            changes.append(episode.sequence)
            changes.append(episode.graceEnd)
            changes.append(episode.graceEndInferred)
            changes.append(episode.isSavedInGrace)
            changes.append(episode.graceDays)
            changes.endRow()
            changed += 1
        }
        guard changed > 0 else { return 0 }
        let table = Self.graceEnds
        try writer.execute(
            "CREATE TEMP TABLE IF NOT EXISTS \(table.name) (\(table.columnDefinitions)) ON COMMIT DELETE ROWS")
        try writer.execute("TRUNCATE \(table.name)")
        try writer.copyIn(table.copyFromStdin()) { out in try out.write(changes.bytes) }
        // With statistics the planner updates the few changed episodes by their primary key; without them it takes
        // the temporary table for a large one and reads every episode of the environment.
        try writer.execute("ANALYZE \(table.name)")
        try writer.execute(
            """
            UPDATE billing_episodes b
            SET grace_end = 'epoch'::timestamptz + c.grace_end_ms * interval '1 millisecond',
                grace_end_inferred = c.grace_end_inferred, saved_in_grace = c.saved_in_grace, grace_days = c.grace_days
            FROM churn_grace_ends c
            WHERE b.environment = $1 AND b.original_transaction_id = c.original_transaction_id
              AND b.sequence = c.sequence
            """,
            [environment]
        )
        return changed
    }
}
