import Analysis

extension RecoveryCurve {
    package static let fileName = "recovery_curve.csv"
    /// The commitment plans' curve (days 1…90), written only when the scope holds a commitment episode.
    package static let commitmentFileName = "recovery_curve_commitment.csv"
    package static let columns = ["day", "at_risk", "recovered", "cif_recovery"]

    /// `recovery_curve.csv` (standard plans), or with `plan` commitment `recovery_curve_commitment.csv`: one row per
    /// day.
    package static func table(_ points: [Point], plan: Episode.BillingPlan = .standard) -> ReportTable {
        ReportTable(
            name: plan == .commitment ? commitmentFileName : fileName,
            columns: columns,
            rows: points.map { point in
                [
                    .integer(point.day), .integer(point.atRisk), .integer(point.recovered),
                    .decimal(point.cifRecovery, places: ReportTable.Cell.ratePlaces),
                ]
            }
        )
    }
}
