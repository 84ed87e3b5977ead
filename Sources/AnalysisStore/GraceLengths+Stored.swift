import Analysis
import PGClient

extension GraceLengths {
    /// The usual grace lengths of the episodes `billing_episodes` holds for `environment`, as
    /// ``GraceLengths/init(observedIn:)`` finds them in those episodes: SQL only counts the stored `grace_days` (the
    /// analysis's ``Episode/graceDays``) of the grace periods dated by a notification.
    static func stored(environment: String, connection: PGConnection) throws -> GraceLengths {
        let counts = try connection.execute(
            """
            SELECT product_id, bundle_id, grace_days, count(*)
            FROM billing_episodes
            WHERE environment = $1 AND grace_days IS NOT NULL AND NOT grace_end_inferred
            GROUP BY 1, 2, 3
            """,
            [environment]
        ).rows.compactMap { row -> GraceLengths.Count? in
            guard row.count == 4, let days = row[2].flatMap({ Int($0) }), let episodes = row[3].flatMap({ Int($0) })
            else { return nil }
            return GraceLengths.Count(productId: row[0], bundleId: row[1], days: days, episodes: episodes)
        }
        return GraceLengths(counts: counts)
    }
}
