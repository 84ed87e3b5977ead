import Analysis
import AppStoreNotifications
import ArgumentParser
import Foundation
import Reports
import Workflows

extension Churn {
    /// `churn report`: write the involuntary-churn report (CSV files, summary.md, charts).
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write the involuntary-churn report: CSV tables, summary.md and two charts.",
            usage: "churn report [<options>]",
            discussion: """
                Brings the stored episodes up to date first (like `churn analyze`),
                then writes reports/<as-of date>/ (or --out DIR): every CSV file that
                docs/METRICS.md defines, summary.md, recovery_curve.svg,
                recovery_hazard.svg and headline.json. The same data gives
                byte-identical files. Another environment's reports go in a folder
                of their own: reports/sandbox/<date>/. summary.md compares with the
                previous report of the same environment, database and granularity
                written as of its latest data, as nightly writes them: a report
                with --as-of is never another's previous one (docs/REPORT.md,
                "Episodes and reports").

                --as-of takes a date (2026-11-20: the end of that day, UTC), a
                date-time (2026-11-20T12:00:00Z) or Unix milliseconds; only
                notifications signed by then count. Default: the latest signedDate
                loaded.

                Examples:
                  churn report
                  churn report --as-of 2025-10-31 --granularity week
                  churn report --environment Sandbox --out /tmp/sandbox-report
                  churn report --apple-reports ~/Downloads/apple-reports

                --apple-reports DIR reads App Store Connect's Subscription Event and
                Subscription State report files (TSV, gzip or not) and adds
                apple_comparison.csv and a section of summary.md: our billing-issue
                figures against Apple's, per week and day, within Apple's noise
                (see `churn compare-apple --help`).

                --exchange-rates FILE gives your own rates, so that summary.md states
                what is at stake, and what retry is expected to bring back, as one
                figure in one currency (no rate is fetched or invented; a currency
                without one stays apart). CSV, a header naming the currency to
                convert to, then what one unit of each currency is worth in it:
                  currency,rate_to_USD
                  EUR,1.08
                  JPY,0.0067

                A change of an app's Billing Grace Period setting is found in the
                data (each product's grace length, month by month) and evaluated
                in grace_change.csv against the products whose length held. If you
                know when you changed it, say so (repeatable):
                  churn report --grace-change com.example.app=2026-03-01:28
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Report as of this time (see below).", valueName: "time"))
        var asOf: String?

        @Option(help: ArgumentHelp("Directory to write (default: reports/<as-of date>).", valueName: "dir"))
        var out: String?

        @Option(help: ArgumentHelp("Directory holding dated reports.", valueName: "dir"))
        var reportsRoot: String = "reports"

        @Option(help: ArgumentHelp("Environment to report on (Production, Sandbox).", valueName: "name"))
        var environment: Environment = .production

        @Option(help: ArgumentHelp("Cohorts by calendar month or ISO week: month, week.", valueName: "period"))
        var granularity: CalendarPeriod.Granularity = .month

        @OptionGroup var schedule: ScheduleOption

        @OptionGroup var exchangeRates: ExchangeRatesOption

        @OptionGroup var graceChanges: GraceChangeOption

        @Option(
            help: ArgumentHelp(
                "App Store Connect Subscription Event and State report files to compare with (a directory or a file).",
                valueName: "dir"
            )
        )
        var appleReports: String?

        func validate() throws {
            if let asOf { _ = try DateArgument.asOf(asOf) }
        }

        func run() throws {
            // A directory that cannot be written is not a usage mistake: said in one line, before any work.
            for (option, path) in [("--reports-root", reportsRoot), ("--out", out)] {
                if let path, let problem = FileAccess.problem(creatingIn: path) {
                    throw ValidationError("\(option) \(path): \(problem).")
                }
            }
            let logger = global.makeLogger()
            let inputs = ReportWorkflow.Inputs(
                environment: environment.rawValue, asOf: try asOf.map { try DateArgument.asOf($0) }, out: out,
                reportsRoot: reportsRoot, granularity: granularity, schedule: try schedule.load(),
                appleReports: appleReports.map { [$0] }, exchangeRates: try exchangeRates.load(),
                graceChanges: try graceChanges.changes()
            )
            let written = try ReportWorkflow(target: global.target, logger: logger).run(inputs)
            if let problem = written.previousReportProblem { Console.warnPreviousReportUnreadable(problem) }
            let outcomes = written.report.outcomes
            print("wrote \(written.directory.path)/ (\(written.report.fileCount) files)")
            print(
                "\(environment.rawValue) as of \(UTCTime.minute(written.asOf)): \(outcomes.episodes) episodes, "
                    + "\(outcomes.recovered) recovered, \(outcomes.expired) expired, \(outcomes.cancelled) cancelled, "
                    + "\(outcomes.other) other, \(outcomes.open) open"
            )
        }
    }
}

extension CalendarPeriod.Granularity: NameArgument {}
