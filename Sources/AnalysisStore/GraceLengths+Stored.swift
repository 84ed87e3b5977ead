import Analysis
import PGClient

extension GraceLengths {
    /// The usual grace lengths of the episodes `billing_episodes` holds for `environment`, as
    /// ``GraceLengths/init(observedIn:)`` finds them in those episodes: SQL only counts the stored `grace_days` (the
    /// analysis's ``Episode/graceDays``) of the grace periods dated by a notification, per billing plan;
    /// ``GraceLengths`` decides which plans count.
    static func stored(environment: String, connection: PGConnection) throws -> GraceLengths {
        let result = try connection.execute(
            """
            SELECT product_id, bundle_id, grace_days, billing_plan, count(*) AS episodes
            FROM billing_episodes
            WHERE environment = $1 AND grace_days IS NOT NULL AND NOT grace_end_inferred
            GROUP BY 1, 2, 3, 4
            """,
            [environment]
        )
        let fields = (
            product: try result.field("product_id"), bundle: try result.field("bundle_id"),
            days: try result.field("grace_days"), episodes: try result.field("episodes"),
            plan: try result.field("billing_plan")
        )
        let counts = try result.rows.map { row in
            GraceLengths.Count(
                productId: try row.decode(String?.self, fields.product),
                bundleId: try row.decode(String?.self, fields.bundle),
                days: try row.decode(Int.self, fields.days), episodes: try row.decode(Int.self, fields.episodes),
                billingPlan: try row.decode(Episode.BillingPlan.self, fields.plan))
        }
        return GraceLengths(counts: counts)
    }
}
