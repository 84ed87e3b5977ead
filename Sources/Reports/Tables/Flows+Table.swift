import Analysis

extension Flows {
    package static let fileName = "flows.csv"
    package static let columns = [
        "week", "entered", "recovered_in_grace", "recovered_after_grace", "recovered_without_grace", "expired",
        "cancelled", "other", "in_retry_at_week_end",
    ]

    /// `flows.csv`: one row per week.
    package static func table(_ weeks: [Week]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: weeks.map { week in
                [
                    .text(week.week.description), .integer(week.entered), .integer(week.recoveredInGrace),
                    .integer(week.recoveredAfterGrace), .integer(week.recoveredWithoutGrace), .integer(week.expired),
                    .integer(week.cancelled), .integer(week.other), .integer(week.inRetryAtWeekEnd),
                ]
            })
    }
}
