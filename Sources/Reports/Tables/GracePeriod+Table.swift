import Analysis

extension GracePeriod {
    package static let fileName = "grace_period.csv"
    package static let columns = [
        "cohort", "grace_episodes", "saved_in_grace", "recovered_after_grace", "expired", "cancelled", "other",
        "open", "save_rate",
    ]

    /// `grace_period.csv`: one row per cohort, the total as `(all)`.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in [.text(row.cohort?.description ?? ReportTable.total)] + cells(row.counts) })
    }

    /// The cells after `cohort`: `grace_episodes … save_rate`.
    static func cells(_ counts: Counts) -> [ReportTable.Cell] {
        [
            .integer(counts.graceEpisodes), .integer(counts.savedInGrace), .integer(counts.recoveredAfterGrace),
            .integer(counts.expired), .integer(counts.cancelled), .integer(counts.other), .integer(counts.open),
            .ratio(counts.savedInGrace, counts.decided),
        ]
    }
}
