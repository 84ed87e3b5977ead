import Analysis

extension RecoveryCurve {
    package static let fileName = "recovery_curve.csv"
    package static let columns = ["day", "at_risk", "recovered", "cif_recovery"]

    /// `recovery_curve.csv`: one row per day.
    package static func table(_ points: [Point]) -> ReportTable {
        ReportTable(
            name: fileName,
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
