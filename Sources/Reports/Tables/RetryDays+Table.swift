import Analysis

extension RetryDays {
    package static let fileName = "retry_days.csv"
    package static let columns = ["day", "message_day", "at_risk", "recoveries", "hazard", "hazard_low", "hazard_high"]

    /// `retry_days.csv`: one row per day of the life table; the hazard and its interval are empty when nobody is at
    /// risk.
    package static func table(_ days: [Day]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: days.map { day in
                [
                    .integer(day.day), .boolean(day.isMessageDay), .integer(day.counts.atRisk),
                    .integer(day.counts.events), .decimal(ifDefined: day.hazard, places: ReportTable.Cell.ratePlaces),
                    .decimal(ifDefined: day.interval?.low, places: ReportTable.Cell.ratePlaces),
                    .decimal(ifDefined: day.interval?.high, places: ReportTable.Cell.ratePlaces),
                ]
            })
    }
}
