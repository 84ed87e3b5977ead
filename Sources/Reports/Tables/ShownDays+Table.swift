import Analysis

extension ShownDays {
    package static let fileName = "message_log.csv"
    package static let columns = [
        "band", "episodes", "shown_days", "shown_day_hazard", "other_day_hazard", "hazard_ratio", "hazard_ratio_low",
        "hazard_ratio_high",
    ]

    /// `message_log.csv`: one row per band of the message schedule (its days within 1…60), then `(all)`; rates and
    /// ratios with 6 decimals, empty where undefined.
    package static func table(_ rows: [Row]) -> ReportTable {
        let places = ReportTable.Cell.ratePlaces
        return ReportTable(
            name: fileName, columns: columns,
            rows: rows.map { row in
                [
                    row.band.map { .integer($0) } ?? .text(ReportTable.total), .integer(row.episodes),
                    .integer(row.shownDays), .decimal(ifDefined: row.shown.rate, places: places),
                    .decimal(ifDefined: row.other.rate, places: places),
                    .decimal(ifDefined: row.ratio.ratio, places: places),
                    .decimal(ifDefined: row.ratio.interval?.low, places: places),
                    .decimal(ifDefined: row.ratio.interval?.high, places: places),
                ]
            })
    }
}
