import Analysis

extension Revenue {
    package static let fileName = "revenue.csv"
    package static let columns = [
        "currency", "recovered_episodes", "recovered_amount", "saved_in_grace_amount", "expired_episodes",
        "lost_amount", "open_episodes", "at_risk_amount", "expected_recoveries", "expected_recovered_amount",
        "commitment_open_episodes", "commitment_amount_at_risk", "commitment_amount_lost",
    ]

    /// `revenue.csv`: one row per currency, amounts as currency units with 3 decimals, an amount too large to add
    /// up as an empty cell; the expected recoveries with 6 decimals, the expected amount with 3; then the commitment
    /// plans' open episodes and what they owe and lost.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                let amounts = row.amounts
                return [
                    .text(row.currency), .integer(amounts.recoveredEpisodes),
                    .milliunits(ifDefined: amounts.recoveredAmount),
                    .milliunits(ifDefined: amounts.savedInGraceAmount), .integer(amounts.expiredEpisodes),
                    .milliunits(ifDefined: amounts.lostAmount), .integer(amounts.openEpisodes),
                    .milliunits(ifDefined: amounts.atRiskAmount),
                    .decimal(row.expected.recoveries, places: ReportTable.Cell.ratePlaces),
                    .decimal(row.expected.amount, places: 3), .integer(amounts.commitmentOpenEpisodes),
                    .milliunits(ifDefined: amounts.commitmentAmountAtRisk),
                    .milliunits(ifDefined: amounts.commitmentAmountLost),
                ]
            })
    }
}
