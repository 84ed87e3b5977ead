import Analysis
import PGClient

extension GraceLengths {
    /// The usual grace lengths of the episodes `billing_episodes` holds for `environment`, as
    /// ``GraceLengths/init(observedIn:)`` finds them in those episodes: the same whole days from the same
    /// millisecond values, counted by SQL.
    static func stored(environment: String, connection: PGConnection) throws -> GraceLengths {
        // ⌊(grace_end − t0) / 24 h + ½⌋ on the Unix milliseconds the episodes are read with, as GraceLengths.days.
        let counts = try connection.execute(
            """
            SELECT product_id, bundle_id,
                   floor((((date_part('epoch', grace_end) * 1000)::int8 - (date_part('epoch', start_at) * 1000)::int8)
                           + 43200000)::numeric / 86400000)::int8,
                   count(*)
            FROM billing_episodes
            WHERE environment = $1 AND has_grace AND grace_end IS NOT NULL AND NOT grace_end_inferred
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
