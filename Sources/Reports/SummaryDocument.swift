import Analysis
import AppleReports

/// `summary.md`: the report for people, in the order of the decisions it serves.
///
/// Sections: scope (and a one-line note when the latest 7 days may still be incomplete), what to decide, the
/// headline over mature episodes, money per currency, changes since the previous report (when there is one), how
/// well the chances of recovery given 61 days ago did, week by week, customers who come back, grace period, another grace length, when
/// recoveries come (both charts), cohorts, products, storefronts and data quality; then the method detail: how to read the
/// report (its terms), billing-issue messages, and the list of files. Figures come from the same analyzers as the
/// CSV files; numbers are formatted by `HumanFormat`.
package struct SummaryDocument: Sendable {
    package let report: Report

    package init(report: Report) {
        self.report = report
    }

    /// The whole document.
    package var markdown: String {
        var writer = MarkdownWriter()
        writeScope(to: &writer)
        writeDecisions(to: &writer)
        writeHeadline(to: &writer)
        writeMoney(to: &writer)
        if let previous = report.options.previous {
            writeChanges(since: previous, to: &writer)
        }
        writeForecastCheck(to: &writer)
        writeWeeks(to: &writer)
        writeReturns(to: &writer)
        if let comparison = report.appleComparison {
            writeAppleComparison(comparison, to: &writer)
        }
        writeGrace(to: &writer)
        writeGraceWhatIf(to: &writer)
        writeTiming(to: &writer)
        writeCohorts(to: &writer)
        writeProducts(to: &writer)
        writeStorefronts(to: &writer)
        writeDataQuality(to: &writer)
        // Method detail, after everything a reader decides from.
        writeReading(to: &writer)
        writeMessages(to: &writer)
        writeFiles(to: &writer)
        return writer.text
    }

    /// The environment, safe for running text.
    var environment: String {
        MarkdownWriter.escape(report.options.environment)
    }

    /// The share in front of its counts: `45.5% (5 of 11)`.
    static func share(_ count: Int, of total: Int) -> String {
        let rate = total == 0 ? nil : Double(count) / Double(total)
        return HumanFormat.percent(rate) + " (" + HumanFormat.count(count) + " of " + HumanFormat.count(total) + ")"
    }

    /// `3 episodes`, `1 episode`.
    static func episodes(_ count: Int) -> String {
        HumanFormat.count(count) + (count == 1 ? " episode" : " episodes")
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    // MARK: - Scope and files

    private func writeScope(to writer: inout MarkdownWriter) {
        var title = "Involuntary churn: \(report.options.environment), as of \(UTCTime.minute(report.asOf))"
        if let latest = report.options.latestSignedDate, latest < report.asOf {
            title += ", after the latest notification loaded (signed \(UTCTime.minute(latest)))"
        }
        writer.heading(title, level: 1)
        let cohorts =
            report.options.granularity == .month ? "UTC calendar months" : "ISO 8601 weeks (Monday to Sunday, UTC)"
        writer.paragraph(
            "Every billing-retry episode of the \(environment) environment that started by the as-of time, from the "
                + "App Store Server Notifications signed by then; cohorts are the \(cohorts) in which episodes "
                + "started. [How to read this report](#how-to-read-this-report) defines the terms; the CSV files next "
                + "to this summary hold every table in full.")
        if report.mayMissLateNotifications {
            writeLateNotificationsNote(to: &writer)
        }
    }

    /// The note on notifications that may still arrive, in one line (METRICS-NOTES.md, "The latest 7 days"; the
    /// reason is in ``writeReading(to:)``).
    private func writeLateNotificationsNote(to writer: inout MarkdownWriter) {
        let (since, overflow) = report.asOf.subtractingReportingOverflow(Report.lateDeliveryWindow)
        var text = "> **The latest 7 days may still change:** notifications signed"
        text += overflow ? " in the 7 days before the as-of time" : " since \(UTCTime.minute(since))"
        text += " can still arrive, so no figure here is final"
        if let latest = report.options.latestSignedDate {
            text += " (the latest loaded was signed at \(UTCTime.minute(latest)))"
        }
        writer.paragraph(text + ".")
    }

    /// What each file holds, in `Report.fileNames` order (without `summary.md` itself).
    package static let fileDescriptions: [(name: String, description: String)] = [
        (
            RecoveryByCohort.fileName,
            "outcomes per cohort and product, the recovery rate of ended episodes, and the recovery rate of mature "
                + "episodes with its 95% interval."
        ),
        (RecoveryCurve.fileName, "the recovery curve, days 1 to 60 (drawn in `\(RecoveryCurveChart.fileName)`)."),
        (GracePeriod.fileName, "grace-period episodes per cohort and the share saved in grace."),
        (GraceRevenue.fileName, "revenue saved in grace, per currency."),
        (
            MessageBands.fileName,
            "per band of the message schedule: modelled messages and recoveries, and the hazard ratio of message "
                + "days against the days around them (pooled over the bands in the `(all)` row)."
        ),
        (
            RetryDays.fileName,
            "the daily recovery hazard with its 95% interval, days 1 to 60, message days marked (drawn in "
                + "`\(RecoveryHazardChart.fileName)`)."
        ),
        (
            Revenue.fileName,
            "money recovered, saved in grace, lost and still at risk, and what retry is expected to bring back of "
                + "it, per currency."
        ),
        (
            OpenEpisodes.fileName,
            "every episode still in billing retry, with its customer's `appAccountToken`, day of retry, grace, "
                + "price at stake and chance of recovery by day 60: the list to work from."
        ),
        (
            ForecastCheck.fileName,
            "the episodes open 61 days ago, by tenth of the chance of recovery this method gave them then: the "
                + "recoveries it expected against those that came by day 60, with the observed share's 95% confidence "
                + "interval."
        ),
        (
            GraceWhatIf.fileName,
            "per product, the paid days each grace length would have kept and the free access it would have given "
                + "over mature episodes, if every recovery came when it came."
        ),
        (
            Returns.fileName,
            "of the customers billing retry lost, per month of the expiry, how many came back (by any subscription of "
                + "theirs) and the share back within 30, 90 and 180 days."
        ),
        (Flows.fileName, "episodes entering and leaving billing retry, per ISO week, every week."),
        (BillingFailures.fileName, "episodes started against ordinary renewals, per month."),
        (DataQuality.fileName, "one count per data-quality check."),
        (RecoveryCurveChart.fileName, "the recovery curve chart."),
        (RecoveryHazardChart.fileName, "the chance of recovery on each day of retry (the daily hazard), as a chart."),
        (Headline.fileName, "the headline figures, read by the next report for its comparison."),
    ]

    private func writeFiles(to writer: inout MarkdownWriter) {
        writer.heading("Files")
        var files = Self.fileDescriptions.map { "`\($0.name)`: \($0.description)" }
        if !report.figures.recoveryCurveCommitment.isEmpty {
            files.append(
                "`\(RecoveryCurve.commitmentFileName)`: the recovery curve of the monthly plans with a 12-month "
                    + "commitment, days 1 to 90 (their billing retry lasts up to 90 days).")
        }
        if report.appleComparison != nil {
            files.append(
                "`\(AppleComparison.fileName)`: our billing-issue figures against App Store Connect's Subscription "
                    + "Event and Subscription State reports, per week and per day, within Apple's noise.")
        }
        writer.bulletList(files)
    }
}
