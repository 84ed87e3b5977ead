import Analysis

extension SummaryDocument {
    /// When recoveries come: the recovery curve with the grace ends in the data, the three recovery rates side by
    /// side, and the daily hazard, with both charts.
    func writeTiming(to writer: inout MarkdownWriter) {
        writer.heading("When recoveries come")
        writer.image(alt: "Recovery curve", path: RecoveryCurveChart.fileName)
        let lengths = report.graceLengths
        let marks = lengths.map { length in
            HumanFormat.percent(report.cifRecovery(byDay: length.days)) + " when the " + length.endLabel
        }
        let retryDays = RetryDays.days.upperBound
        writer.paragraph(
            "The share of the episodes recovered by each day of retry: "
                + (marks.isEmpty
                    ? "no grace period with a known end is in the data, so none is marked; "
                    : Self.list(marks) + " (dashed on the chart); ")
                + "\(HumanFormat.percent(report.cifRecovery(byDay: retryDays))) by day \(retryDays), when retry "
                + "stops.")
        writer.paragraph(threeRecoveryRates)
        writer.image(alt: "Chance of recovery, day by day", path: RecoveryHazardChart.fileName)
        writer.paragraph(
            "Each day's share of the episodes in retry that recovered that day (`\(RetryDays.fileName)`), 95% "
                + "interval shaded, large dots on message days"
                + (lengths.isEmpty
                    ? "."
                    : "; the day a grace period ends (dashed) is left out, as recoveries can cluster when access "
                        + "ends."))
    }

    /// The curve's value at day 60 beside the mature recovery rate (the one at a glance) and the rate over ended
    /// episodes, each with what it is for.
    var threeRecoveryRates: String {
        let mature = report.all.mature
        let retryDays = RetryDays.days.upperBound
        let headline =
            mature.episodes == 0
            ? "no rate over mature episodes yet (none is mature)"
            : "**\(HumanFormat.percent(mature.recoveryRate))** of mature episodes (95% interval "
                + "\(HumanFormat.percentInterval(mature.recoveryRateInterval))), the rate at a glance, for decisions"
        return "Three recovery rates: **\(HumanFormat.percent(report.cifRecovery(byDay: retryDays)))** by day "
            + "\(retryDays) on the curve, the estimate for every episode, open ones counted while observed; " + headline
            + "; **" + HumanFormat.percent(report.all.outcomes.recoveryRate) + "** of ended episodes, high while "
            + "cohorts are young (recoveries are known before expiries)."
    }
}
