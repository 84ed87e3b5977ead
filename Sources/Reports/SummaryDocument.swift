import Analysis
import AppleReports

/// `summary.md`: the report for people, in the order of the decisions it serves.
///
/// Sections: scope (with a note naming the apps when it adds up several, and one when the latest 7 days may still
/// be incomplete), the first screen (the share retry recovers over mature episodes, what is at stake and expected
/// back, whom to reach, the grace setting, the terms in plain words), money per currency, changes since the previous
/// report (when there is one), how well the chances of recovery given 61 days ago did, week by week, customers who
/// come back, grace period, another grace setting, a grace change evaluated (when there is one), the billing messages
/// the app showed (when its log is loaded), when recoveries come (both charts), cohorts, products, storefronts and data
/// quality; then the method detail: how to read the report (its statistics), billing-issue
/// messages, and the list of files. Figures come from the same analyzers as the CSV files; numbers are formatted by
/// `HumanFormat`.
package struct SummaryDocument: Sendable {
    package let report: Report

    package init(report: Report) {
        self.report = report
    }

    /// The whole document.
    package var markdown: String {
        var writer = MarkdownWriter()
        writeScope(to: &writer)
        writeAtAGlance(to: &writer)
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
        writeGraceChanges(to: &writer)
        writeMessageLog(to: &writer)
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
            "Every failed renewal of \(environment) by the as-of time and its billing retry (an *episode*), from "
                + "notifications signed by then; cohorts are \(cohorts); the CSV files beside it hold every table.")
        if report.apps.count > 1 {
            writeAppsNote(to: &writer)
        }
        if report.mayMissLateNotifications {
            writeLateNotificationsNote(to: &writer)
        }
    }

    /// The note on a report that adds up several apps, naming them with their episodes and how to ask of one.
    private func writeAppsNote(to writer: inout MarkdownWriter) {
        let apps = report.apps.map { app in
            (app.bundleId.isEmpty ? "no bundle id" : "`" + app.bundleId + "`") + " (" + HumanFormat.count(app.episodes)
                + ")"
        }
        writer.paragraph(
            "> **" + HumanFormat.count(apps.count) + " apps in one report:** every figure adds up the episodes of "
                + Self.list(apps) + ". For one app, ask `churn query QUESTION --bundle-id ID`, or split any answer "
                + "with `--group-by app`; `grace_whatif.csv` is per app already.")
    }

    /// The note on notifications that may still arrive, in one line (METRICS-NOTES.md, "The latest 7 days"; the
    /// reason is in ``writeReading(to:)``).
    private func writeLateNotificationsNote(to writer: inout MarkdownWriter) {
        let (since, overflow) = report.asOf.subtractingReportingOverflow(Report.lateDeliveryWindow)
        var text = "> **The latest 7 days may still change:** notifications signed"
        text += overflow ? " in the 7 days before the as-of time" : " since \(UTCTime.minute(since))"
        text += " can still arrive"
        if let latest = report.options.latestSignedDate {
            text += " (the latest loaded was signed at \(UTCTime.minute(latest)))"
        }
        writer.paragraph(text + ".")
    }

    /// The few files whose name does not say enough, with what they hold.
    static let fileNotes = [
        RecoveryByCohort.fileName: "cohorts and products", OpenEpisodes.fileName: "the customers to reach",
    ]

    /// Every file but `summary.md`, in one paragraph: the tables, in `Report.fileNames` order, then the commitment
    /// plans' curve and Apple's comparison when written, the charts, and `headline.json`.
    private func writeFiles(to writer: inout MarkdownWriter) {
        writer.heading("Files")
        var tables = Report.fileNames.filter { $0.hasSuffix(".csv") }
        if !report.figures.recoveryCurveCommitment.isEmpty { tables.append(RecoveryCurve.commitmentFileName) }
        if !report.figures.graceChanges.isEmpty { tables.append(GraceChange.fileName) }
        if !report.figures.messageLog.isEmpty { tables.append(ShownDays.fileName) }
        if !report.figures.messageExperiment.isEmpty { tables.append(MessageExperiment.fileName) }
        if report.appleComparison != nil { tables.append(AppleComparison.fileName) }
        let charts = Report.fileNames.filter { $0.hasSuffix(".svg") }
        func named(_ name: String) -> String {
            "`\(name)`" + (Self.fileNotes[name].map { " (\($0))" } ?? "")
        }
        writer.paragraph(
            "Beside this summary, every table in full: " + Self.list(tables.map(named)) + "; the charts "
                + Self.list(charts.map(named)) + "; and `\(Headline.fileName)`, which the next report compares with.")
    }
}
