import Analysis

/// `summary.md`: the report for people.
///
/// Sections: scope, headline figures (each with its definition in plain words), changes since the previous report
/// (when one is given), how fast recoveries come (with the chart), recovery by cohort and by product, grace
/// period, billing messages, data quality, and the list of files. Figures come from the same analyzers as the
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
        writeHeadline(to: &writer)
        if let previous = report.options.previous {
            writeChanges(since: previous, to: &writer)
        }
        writePace(to: &writer)
        writeCohorts(to: &writer)
        writeProducts(to: &writer)
        writeGrace(to: &writer)
        writeMessages(to: &writer)
        writeDataQuality(to: &writer)
        writeFiles(to: &writer)
        return writer.text
    }

    /// The environment, safe for running text.
    var environment: String {
        MarkdownWriter.escape(report.options.environment)
    }

    /// "5 of 11" with the share in front: `45.5% (5 of 11)`.
    static func share(_ count: Int, of total: Int) -> String {
        let rate = total == 0 ? nil : Double(count) / Double(total)
        return HumanFormat.percent(rate) + " (" + HumanFormat.count(count) + " of " + HumanFormat.count(total) + ")"
    }

    /// The cells `Episodes … Open, Recovery rate` of an outcome row.
    static func outcomeCells(_ counts: OutcomeCounts) -> [String] {
        [counts.episodes, counts.recovered, counts.expired, counts.cancelled, counts.other, counts.open]
            .map(HumanFormat.count) + [HumanFormat.percent(counts.recoveryRate)]
    }

    static let outcomeHeader = ["Episodes", "Recovered", "Expired", "Cancelled", "Other", "Open", "Recovery rate"]

    // MARK: - Scope and files

    private func writeScope(to writer: inout MarkdownWriter) {
        writer.heading(
            "Involuntary churn: \(report.options.environment), as of \(UTCTime.timestamp(report.asOf))", level: 1)
        let cohorts =
            report.options.granularity == .month ? "UTC calendar months" : "ISO 8601 weeks (Monday to Sunday, UTC)"
        writer.paragraph(
            """
            This report covers every billing-retry episode in the \(environment) environment that started by the \
            as-of time, from the App Store Server Notifications signed by then. An episode begins when a renewal \
            charge fails and the App Store starts retrying it; it ends when the App Store collects the payment \
            (recovered), when retry ends without a payment (expired), when the subscriber turns off renewal \
            (cancelled), or with a refund or revocation (other). An episode without an end yet is open. Cohorts \
            are the \(cohorts) in which episodes started. The CSV files next to this summary hold every table in \
            full.
            """)
    }

    private func writeFiles(to writer: inout MarkdownWriter) {
        writer.heading("Files")
        writer.bulletList([
            "`\(RecoveryByCohort.fileName)`: outcomes and recovery rate per cohort and product, with totals.",
            "`\(RecoveryCurve.fileName)`: the recovery curve for days 1 to 60 (`recovery_curve.svg` draws it).",
            "`\(GracePeriod.fileName)`: grace-period episodes per cohort and the share saved in grace.",
            "`\(GraceRevenue.fileName)`: revenue saved in grace, per currency.",
            "`\(MessageBands.fileName)`: recoveries against modelled billing messages, per band of the schedule.",
            "`\(RetryDays.fileName)`: the recovery hazard on each day of retry, 1 to 60.",
            "`\(Revenue.fileName)`: money recovered, saved in grace, lost and still at risk, per currency.",
            "`\(Flows.fileName)`: episodes entering and leaving billing retry, per ISO week.",
            "`\(BillingFailures.fileName)`: episodes started against ordinary renewals, per month.",
            "`\(DataQuality.fileName)`: one count per data-quality check.",
            "`\(Headline.fileName)`: the headline figures, read by the next report for its comparison.",
        ])
    }
}
