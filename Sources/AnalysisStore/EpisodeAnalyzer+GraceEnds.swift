import Analysis
import PGClient

extension EpisodeAnalyzer {
    /// Dates the stored grace periods Apple announced without a `gracePeriodExpiresDate`: `grace_end` = t0 plus the
    /// usual grace length of the product (else the app) in the environment, `grace_end_inferred`, and
    /// `saved_in_grace` again; NULL, not inferred and not saved when no length is known (METRICS.md, "Grace without a
    /// date"). Reports infer the same at read time (``EpisodeDataset/finish()``).
    ///
    /// The lengths come from every dated grace episode of the environment, so a rebuild of a few subscriptions can
    /// change the grace end of any undated one: all of them are looked at, in the rebuild's transaction. The
    /// lengths are counted by SQL and decided in Swift (``GraceLengths/init(counts:)``).
    /// - Returns: the episodes whose stored grace end changed.
    @discardableResult
    func inferGraceEnds(environment: String) throws -> Int {
        let pairs = try writer.execute(
            """
            SELECT DISTINCT product_id, bundle_id FROM billing_episodes
            WHERE environment = $1 AND has_grace AND (grace_end IS NULL OR grace_end_inferred)
            """,
            [environment]
        ).rows
        guard !pairs.isEmpty else { return 0 }
        let lengths = try GraceLengths.stored(environment: environment, connection: writer)
        try writer.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS churn_grace_lengths (product_id text, bundle_id text, days bigint)
            ON COMMIT DELETE ROWS
            """
        )
        try writer.execute("TRUNCATE churn_grace_lengths")
        var rows = CopyText()
        for pair in pairs where pair.count == 2 {
            try rows.append(pair[0])
            try rows.append(pair[1])
            rows.append(lengths.length(productId: pair[0], bundleId: pair[1]))
            rows.endRow()
        }
        try writer.copyIn("COPY churn_grace_lengths (product_id, bundle_id, days) FROM STDIN") { out in
            try out.write(rows.bytes)
        }
        let inferred = "b.start_at + l.days * interval '24 hours'"
        let saved = "coalesce(b.outcome = 'recovered' AND b.end_at <= \(inferred), false)"
        return try writer.execute(
            """
            UPDATE billing_episodes b
            SET grace_end = \(inferred), grace_end_inferred = l.days IS NOT NULL, saved_in_grace = \(saved)
            FROM churn_grace_lengths l
            WHERE b.environment = $1 AND b.has_grace AND (b.grace_end IS NULL OR b.grace_end_inferred)
              AND b.product_id IS NOT DISTINCT FROM l.product_id AND b.bundle_id IS NOT DISTINCT FROM l.bundle_id
              AND (b.grace_end, b.grace_end_inferred, b.saved_in_grace)
                  IS DISTINCT FROM (\(inferred), l.days IS NOT NULL, \(saved))
            """,
            [environment]
        ).affectedRows
    }
}
