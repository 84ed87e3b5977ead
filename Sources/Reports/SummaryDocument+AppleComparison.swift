import Analysis
import AppleReports

extension SummaryDocument {
    /// The section on App Store Connect's own reports: how many weeks agree within Apple's noise, and each week
    /// that differs, named with its figure.
    func writeAppleComparison(_ comparison: AppleComparison, to writer: inout MarkdownWriter) {
        writer.heading("Against Apple's reports")
        let files = comparison.files.count
        let restated = comparison.files.reduce(0) { $0 + $1.restated }
        var intro =
            "Our figures against App Store Connect's *App Store Subscription Event* and *App Store Subscription "
            + "State* reports (\(HumanFormat.count(files)) \(files == 1 ? "file" : "files")"
        if restated > 0 {
            intro +=
                "; \(HumanFormat.count(restated)) restated \(restated == 1 ? "day" : "days"), the later file's "
                + "counts taken"
        }
        intro +=
            "). Apple adds noise to every value (about ±\(AppleComparison.noise68) for 68 % of values, "
            + "±\(AppleComparison.noise997) for 99.7 %) and leaves out values under \(AppleComparison.threshold): a "
            + "difference within that noise is agreement, and ours may be above Apple's by what the values left out "
            + "could hold. `\(AppleComparison.fileName)` has every week and day."
        writer.paragraph(intro)
        if !comparison.notices.isEmpty {
            writer.paragraph("Read but not compared:")
            writer.bulletList(comparison.notices.map(MarkdownWriter.escape))
        }
        guard !comparison.weeks.isEmpty || !comparison.months.isEmpty else {
            writer.paragraph("The files state no day that is complete by the as-of time, so nothing is compared.")
            return
        }
        let weeks = Set(comparison.weeks.map(\.period))
        let differing = comparison.differingWeeks
        let differingWeeks = Set(differing.map(\.period))
        if comparison.statesNoWeekFigure {
            writer.paragraph(
                "Apple's files hold no value of our figures in the \(HumanFormat.count(weeks.count)) "
                    + "\(weeks.count == 1 ? "week" : "weeks") they state, so nothing is compared.")
        } else if !weeks.isEmpty, differing.isEmpty {
            writer.paragraph(
                "**Every figure of the \(HumanFormat.count(weeks.count)) \(weeks.count == 1 ? "week" : "weeks") "
                    + "compared agrees with Apple's within its noise.**")
        } else if !weeks.isEmpty {
            writer.paragraph(
                "**\(HumanFormat.count(differingWeeks.count)) of \(HumanFormat.count(weeks.count)) "
                    + "\(weeks.count == 1 ? "week" : "weeks") \(differingWeeks.count == 1 ? "differs" : "differ") beyond "
                    + "Apple's noise:**")
            writer.bulletList(differing.map(\.sentence))
        }
        if comparison.unstatedWeekFigures > 0 {
            writer.paragraph(
                "Not compared: \(HumanFormat.count(comparison.unstatedWeekFigures)) weekly "
                    + "\(comparison.unstatedWeekFigures == 1 ? "figure" : "figures") Apple's files hold no value of "
                    + "(`unstated`: a count under Apple's threshold, or a figure the files do not carry).")
        }
        if !comparison.months.isEmpty {
            let months = Set(comparison.months.map(\.period)).count
            let differingMonths = comparison.differingMonths
            writer.paragraph(
                differingMonths.isEmpty
                    ? "Apple's monthly files: every figure of the \(HumanFormat.count(months)) "
                        + "\(months == 1 ? "month" : "months") compared agrees within its noise."
                    : "Apple's monthly files: \(HumanFormat.count(Set(differingMonths.map(\.period)).count)) of "
                        + "\(HumanFormat.count(months)) \(months == 1 ? "month" : "months") differ beyond its noise:")
            writer.bulletList(differingMonths.map(\.sentence))
        }
        if !comparison.unmapped.isEmpty {
            let values = comparison.unmapped.keys.sorted().map { "`\(MarkdownWriter.escape($0))`" }
            writer.paragraph(
                "Billing events in Apple's files that match none of our figures, kept and not compared: "
                    + Self.list(values) + ".")
        }
    }
}
