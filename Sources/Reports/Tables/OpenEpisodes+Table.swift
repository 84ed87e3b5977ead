import Analysis

extension OpenEpisodes {
    package static let fileName = "open_episodes.csv"
    package static let columns = [
        "original_transaction_id", "app_account_token", "product_id", "storefront", "t0", "day_of_retry", "grace_end",
        "in_grace", "stake_price", "stake_currency", "recovery_chance", "billing_plan", "installments_at_risk",
    ]

    /// `open_episodes.csv`: one row per open episode, by t0; times in ISO 8601 UTC with milliseconds, the price at
    /// stake in currency units with 3 decimals, the chance with 6.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                [
                    .text(row.subscription), row.appAccountToken.map { .text($0) } ?? .empty,
                    row.productId.map { .text($0) } ?? .empty, row.storefront.map { .text($0) } ?? .empty,
                    .text(UTCTime.timestampWithMilliseconds(row.start)), .integer(row.dayOfRetry),
                    row.graceEnd.map { .text(UTCTime.timestampWithMilliseconds($0)) } ?? .empty,
                    .boolean(row.inGrace), .milliunits(ifDefined: row.stakePrice),
                    row.stakeCurrency.map { .text($0) } ?? .empty,
                    .decimal(row.recoveryChance, places: ReportTable.Cell.ratePlaces), .text(row.billingPlan.rawValue),
                    .integer(row.installmentsAtRisk),
                ]
            })
    }
}
