import AppStoreNotifications
import AppleReports
import ArgumentParser
import Foundation
import Reports
import Workflows

extension Churn {
    /// `churn compare-apple FILE…`: our billing-issue figures against App Store Connect's own reports.
    struct CompareAppleCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare-apple",
            abstract: "Set our billing-issue figures beside App Store Connect's Subscription Event and State reports.",
            discussion: """
                Reads App Store Connect Analytics Reports as downloaded, gzip or
                not: App Store Subscription Event (Event Date, Event Sub Type or
                Event Name, Counts, Paid Service Days Recovered) and App Store
                Subscription State (Date, State Metric, Counts), each told by its
                own columns; any other report is skipped with a notice. A
                directory stands for its files. Daily, weekly and monthly
                instances are told by the path (DAILY, WEEKLY, MONTHLY, as Apple
                names them) or by the dates' spacing; a weekly or monthly file is
                compared per week or month, never as a day. Segments of one
                instance (same processing date and directory) are added up. When
                instances state the same period, the later one's counts replace
                the earlier one's: later by the processing date in the path,
                else by modification time, then by the order given. Apple's
                newest 3 days are held back (Apple completes a day within 3
                days) unless a later file restates them.

                Brings the stored episodes up to date (like `churn analyze`) and
                compares, per ISO week (and per UTC day with --days): entered
                billing issue, entered billing retry from grace, recoveries in
                grace and in billing retry, involuntary churn, paid service days
                recovered (recoveries from grace only, as Apple fills it), and the
                subscriptions in grace and in billing retry at the day's end. Apple adds noise (about ±2 for 68% of values, ±6
                for 99.7%) and leaves out values under 5: a difference within
                6 x sqrt(values added) is agreement, and ours may be above Apple's
                by up to 4 more for each value left out (a combination of Apple's
                columns given on another day but not on this one). Weeks that
                differ are named on stderr with their figure.

                Output: an aligned table, or --format csv, json or markdown, with
                the columns of apple_comparison.csv (`churn report --apple-reports
                DIR` writes it beside the report).

                Examples:
                  churn compare-apple ~/Downloads/apple-reports
                  churn compare-apple events-2026-03.txt.gz state-2026-03.txt --days
                  churn compare-apple reports/apple --format csv > comparison.csv
                """
        )

        @Argument(help: ArgumentHelp("Report files, or directories of them.", valueName: "file"))
        var files: [String]

        @OptionGroup var scope: QueryScope

        @Flag(help: "Show each day's figures after the weeks.")
        var days = false

        @Option(help: ArgumentHelp("Output format.", valueName: "format"))
        var format: TableRenderer.Format = .table

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if files.isEmpty {
                throw ValidationError("give at least one report file or directory.")
            }
        }

        func run() throws {
            let inputs = CompareAppleWorkflow.Inputs(
                environment: scope.environment.rawValue, asOf: try scope.asOfTime(), paths: files)
            let answer = try CompareAppleWorkflow(target: global.target, logger: global.makeLogger()).run(inputs)
            let comparison = answer.comparison
            FileHandle.standardOutput.write(
                Data(TableRenderer.render(comparison.table(includeDays: days), as: format).utf8))
            let weeks = Set(comparison.weeks.map(\.period)).count
            var lines: [String] = []
            if comparison.weeks.isEmpty && comparison.months.isEmpty {
                lines.append("no day of the files is complete by the as-of time: nothing compared")
            } else if comparison.weeks.isEmpty {
                lines.append("no week compared: Apple's files give months only")
            } else if comparison.statesNoWeekFigure {
                lines.append("nothing compared: Apple's files hold no value of our figures in the \(weeks) weeks")
            } else if comparison.differingWeeks.isEmpty {
                lines.append("all \(weeks) weeks agree with Apple's reports within Apple's noise")
            } else {
                let differing = Set(comparison.differingWeeks.map(\.period)).count
                lines.append(
                    "\(differing) of \(weeks) weeks \(differing == 1 ? "differs" : "differ") beyond Apple's noise:")
                lines += comparison.differingWeeks.map { "  " + $0.sentence }
            }
            if comparison.unstatedWeekFigures > 0 {
                lines.append(
                    "not compared: \(comparison.unstatedWeekFigures) weekly figure(s) Apple's files hold no value of "
                        + "(status unstated: under Apple's threshold of \(AppleComparison.threshold), or a figure the "
                        + "files do not carry)")
            }
            let months = Set(comparison.months.map(\.period)).count
            if months > 0 {
                let differing = Set(comparison.differingMonths.map(\.period)).count
                lines.append(
                    differing == 0
                        ? "all \(months) \(months == 1 ? "month agrees" : "months agree") with Apple's monthly files"
                        : "\(differing) of \(months) months \(differing == 1 ? "differs" : "differ") beyond Apple's noise:"
                )
                lines += comparison.differingMonths.map { "  " + $0.sentence }
            }
            lines += comparison.notices
            for (value, count) in comparison.unmapped.sorted(by: { $0.key < $1.key }) {
                lines.append("not compared: Apple's event '\(value)' (\(count)) matches none of our figures")
            }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
