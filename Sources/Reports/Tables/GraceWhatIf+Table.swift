import Analysis

extension GraceWhatIf {
    package static let fileName = "grace_whatif.csv"
    package static let columns = [
        "product_id", "grace_days", "current", "mature_episodes", "recovered_in_grace", "paid_days_kept",
        "free_access_days", "paid_days_kept_per_episode", "free_access_days_per_episode",
    ]
    /// The day figures are measured values: 6 decimals, as rates and hazards.
    static let dayPlaces = ReportTable.Cell.ratePlaces

    /// `grace_whatif.csv`: one row per product and grace length, `current` as `true` or `false`, the per-episode
    /// figures empty without a mature episode.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                let figures = row.figures
                return [
                    .text(row.productId), .integer(row.graceDays), .boolean(row.isCurrent),
                    .integer(figures.matureEpisodes), .integer(figures.recoveredInGrace),
                    .decimal(figures.paidDaysKept, places: dayPlaces),
                    .decimal(figures.freeAccessDays, places: dayPlaces),
                    .decimal(ifDefined: figures.paidDaysKeptPerEpisode, places: dayPlaces),
                    .decimal(ifDefined: figures.freeAccessDaysPerEpisode, places: dayPlaces),
                ]
            })
    }
}
