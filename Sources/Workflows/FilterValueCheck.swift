import Analysis
import PGClient

/// Refuses a filter value that no stored episode of the environment has: a typo in `--bundle-id`, `--product` or
/// `--storefront` would otherwise answer zeros. `''` (episodes without one) is always taken.
enum FilterValueCheck {
    /// - Parameters:
    ///   - environment: the environment the values must be found in.
    ///   - filter: the filter whose apps, products and storefronts are checked.
    /// - Throws: ``WorkflowError/unknownFilterValue(option:value:environment:known:)`` naming the first unknown
    ///   value and the values the environment has; `PGError`.
    static func check(environment: String, filter: EpisodeFilter, connection: PGConnection) throws {
        let checks: [(option: String, column: String, values: [String])] = [
            ("--bundle-id", "bundle_id", filter.bundleIds),
            ("--product", "product_id", filter.productIds),
            ("--storefront", "storefront", filter.storefronts),
        ]
        for check in checks where check.values.contains(where: { !$0.isEmpty }) {
            let result = try connection.execute(
                """
                SELECT DISTINCT \(check.column) FROM billing_episodes
                WHERE environment = $1 AND \(check.column) IS NOT NULL AND \(check.column) <> ''
                ORDER BY 1
                """,
                [environment]
            )
            let field = try result.field(check.column)
            let known = try result.rows.map { try $0.decode(String.self, field) }
            if let unknown = check.values.first(where: { !$0.isEmpty && !known.contains($0) }) {
                throw WorkflowError.unknownFilterValue(
                    option: check.option, value: unknown, environment: environment, known: known)
            }
        }
    }
}
