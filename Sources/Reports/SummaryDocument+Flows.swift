import Analysis

extension SummaryDocument {
    /// How many of the latest weeks of `flows.csv` the summary shows.
    static let recentWeeks = 6

    /// The latest weeks of `flows.csv`.
    func writeWeeks(to writer: inout MarkdownWriter) {
        writer.heading("Week by week")
        let weeks = report.weeks
        guard !weeks.isEmpty else {
            writer.paragraph("No episode yet, so no weekly flows.")
            return
        }
        let shown = weeks.suffix(Self.recentWeeks)
        writer.paragraph(
            "Episodes entering and leaving billing retry per ISO week (Monday to Sunday, UTC): "
                + (shown.count == weeks.count
                    ? "every week since the first episode."
                    : "the latest \(HumanFormat.count(shown.count)) of \(HumanFormat.count(weeks.count)) weeks; "
                        + "`\(Flows.fileName)` has them all."))
        writer.table(
            header: [
                "Week", "Entered retry", "Recovered in grace", "Recovered after grace", "Recovered without grace",
                "Expired", "Cancelled", "Other", "In retry at the week's end",
            ],
            alignments: [.left] + Array(repeating: .right, count: 8),
            rows: shown.map { week in
                ["\(week.week.description) (from \(UTCTime.date(week.week.start)))"]
                    + [
                        week.entered, week.recoveredInGrace, week.recoveredAfterGrace, week.recoveredWithoutGrace,
                        week.expired, week.cancelled, week.other, week.inRetryAtWeekEnd,
                    ].map(HumanFormat.count)
            })
        if let last = weeks.last, report.asOf < last.week.end {
            writer.paragraph(
                "The latest week, \(last.week.description), is partial: it is counted to the as-of time.")
        }
        if let failures = failureShareLine() { writer.paragraph(failures) }
    }
}
