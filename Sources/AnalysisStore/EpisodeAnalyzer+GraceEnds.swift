import Analysis
import PGClient

extension EpisodeAnalyzer {
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
        let undated = try writer.execute(
            """
            SELECT \(StoredEpisodeColumns.selectList), saved_in_grace, grace_days
            FROM billing_episodes
            WHERE environment = $1 AND has_grace AND (grace_end IS NULL OR grace_end_inferred)
            """,
            [environment]
        ).rows
        guard !undated.isEmpty else { return 0 }
        let lengths = try GraceLengths.stored(environment: environment, connection: writer)
        var changes = CopyText()
        var changed = 0
        for row in undated {
            let columns = StoredEpisodeColumns.count
            guard row.count == columns + 2 else {
                throw PGError(kind: .unexpectedResult, message: "a billing_episodes row has an unexpected shape")
            }
            var episode = try StoredEpisodeColumns.episode(Array(row.prefix(columns)), environment: environment)
            let stored = (
                graceEnd: episode.graceEnd, inferred: episode.graceEndInferred, saved: row[columns] == "t",
                days: row[columns + 1].flatMap { Int($0) }
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
        try writer.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS churn_grace_ends (
                original_transaction_id text, sequence integer, grace_end_ms bigint, grace_end_inferred boolean,
                saved_in_grace boolean, grace_days integer
            ) ON COMMIT DELETE ROWS
            """
        )
        try writer.execute("TRUNCATE churn_grace_ends")
        try writer.copyIn(
            """
            COPY churn_grace_ends (original_transaction_id, sequence, grace_end_ms, grace_end_inferred, saved_in_grace,
                                   grace_days) FROM STDIN
            """
        ) { out in try out.write(changes.bytes) }
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
