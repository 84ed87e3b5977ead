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
                + "stops. The curve counts open episodes for as long as they have been observed, and an episode that "
                + "expired, was cancelled or ended otherwise cannot recover any more.")
        writer.paragraph(threeRecoveryRates)
        writer.image(alt: "Chance of recovery, day by day", path: RecoveryHazardChart.fileName)
        writer.paragraph(
            "For each day of retry, the share of the episodes still in retry that recovered that day "
                + "(`\(RetryDays.fileName)`), with its 95% interval shaded: where the band is wide, few episodes "
                + "were left to judge by. Large dots are the days a billing message is scheduled. "
                + (lengths.isEmpty
                    ? "No grace period with a known end is in the data, so no grace end is marked."
                    : "Dashed lines mark where the grace periods in the data end: "
                        + Self.list(lengths.map { "the " + $0.endLabel }) + ". On the day its grace period ends, an "
                        + "episode counts nowhere: recoveries can cluster on the day access ends, and that day would "
                        + "blur the daily pattern."))
    }

    /// The headline's mature recovery rate, the curve's value at day 60 and the rate over ended episodes, side by
    /// side, each with what it is for.
    var threeRecoveryRates: String {
        let mature = report.all.mature
        let retryDays = RetryDays.days.upperBound
        let headline =
            mature.episodes == 0
            ? "no rate over mature episodes yet (none is mature), the headline once there is one"
            : "**\(HumanFormat.percent(mature.recoveryRate))** of mature episodes (95% interval "
                + "\(HumanFormat.percentInterval(mature.recoveryRateInterval))), the headline"
        return "Three recovery rates, each for its own use: " + headline + ": every one of those episodes has its "
            + "outcome, so use it for decisions and to compare periods; "
            + "**\(HumanFormat.percent(report.cifRecovery(byDay: retryDays)))** by day \(retryDays) on the recovery "
            + "curve: the estimate for all episodes, young ones included, with open ones counted for as long as they "
            + "have been observed; **\(HumanFormat.percent(report.all.outcomes.recoveryRate))** of ended episodes: "
            + "it leans towards quick outcomes while cohorts are young (recoveries are known before expiries), so it "
            + "only tells what has happened so far."
    }
}
