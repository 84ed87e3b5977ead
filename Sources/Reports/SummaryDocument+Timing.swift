import Analysis

extension SummaryDocument {
    /// When recoveries come: the recovery curve and the daily hazard, with both charts.
    func writeTiming(to writer: inout MarkdownWriter) {
        writer.heading("When recoveries come")
        writer.image(alt: "Recovery curve", path: RecoveryCurveChart.fileName)
        let marks = report.curveMarks
        func by(_ day: Int) -> String {
            HumanFormat.percent(marks.first { $0.day == day }?.cifRecovery ?? 0)
        }
        writer.paragraph(
            "Recovered by day 3 of retry: \(by(3)) of the episodes; by day 16: \(by(16)); by day 28: \(by(28)) (the "
                + "days grace periods of 3, 16 and 28 days end); by day 60, when retry stops: \(by(60)). The curve "
                + "counts open episodes for as long as they have been observed, and an episode that expired, was "
                + "cancelled or ended otherwise cannot recover any more.")
        writer.image(alt: "Daily recovery hazard", path: RecoveryHazardChart.fileName)
        let lengths = report.graceLengths.map { "\($0.days) days (day \($0.day))" }
        writer.paragraph(
            "For each day of retry, the share of the episodes still in retry that recovered that day "
                + "(`\(RetryDays.fileName)`), with its 95% interval shaded: where the band is wide, few episodes "
                + "were left to judge by. Large dots are the days a billing message is scheduled. "
                + (lengths.isEmpty
                    ? "No grace period with a known end is in the data, so no grace end is marked."
                    : "Dashed lines mark the day a grace period ends, for the grace lengths in the data: "
                        + Self.list(lengths) + ". On that day those episodes count nowhere, because losing access "
                        + "makes subscribers pay by itself."))
    }
}
