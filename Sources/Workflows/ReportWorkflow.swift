import Analysis
import AnalysisStore
import AppleReports
import EmbeddedPostgres
import Foundation
import Logging
import Reports

/// Brings the episodes up to date and writes the report directory (`churn report`).
package struct ReportWorkflow {
    package struct Inputs {
        package var environment: String
        /// The time to report as of, Unix milliseconds; nil for the latest `signedDate` loaded.
        package var asOf: Int64?
        /// The directory to write; nil for `<reportsRoot>/<as-of date>`.
        package var out: String?
        /// The directory of dated reports, where the previous report to compare with is found.
        package var reportsRoot: String
        package var granularity: CalendarPeriod.Granularity
        package var schedule: MessageSchedule
        /// App Store Connect's Subscription Event and Subscription State report files (a directory, or files) to
        /// compare with: `apple_comparison.csv` and a section of the summary; nil for none.
        package var appleReports: [String]?
        /// The user's exchange rates (`--exchange-rates FILE`), for the summary's one figure of what is at stake;
        /// nil for none. They change `summary.md` only, so a report with them is still the nightly's.
        package var exchangeRates: ExchangeRates?
        /// Grace changes the user states (`--grace-change`), for `grace_change.csv`.
        package var graceChanges: [GraceChange.Stated]

        /// Whether this is the report `churn nightly` would write now: as of the latest data, in its dated directory,
        /// with the nightly's granularity and schedule and no file of Apple's. Such a report also moves the root's
        /// `latest` link, as the nightly's does; any other is written beside the series and leaves `latest` alone.
        var isTheNightlysReport: Bool {
            asOf == nil && out == nil && granularity == .month && schedule == .standard && appleReports == nil
        }

        package init(
            environment: String, asOf: Int64?, out: String?, reportsRoot: String,
            granularity: CalendarPeriod.Granularity, schedule: MessageSchedule, appleReports: [String]? = nil,
            exchangeRates: ExchangeRates? = nil, graceChanges: [GraceChange.Stated] = []
        ) {
            self.graceChanges = graceChanges
            self.appleReports = appleReports
            self.exchangeRates = exchangeRates
            self.environment = environment
            self.asOf = asOf
            self.out = out
            self.reportsRoot = reportsRoot
            self.granularity = granularity
            self.schedule = schedule
        }
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Writes the report: from the stored episodes when as of the latest data (or later), else from episodes built
    /// afresh from the notifications signed by then.
    /// - Throws: ``WorkflowError/nothingLoaded``, ``WorkflowError/asOfAfterData(asOf:latest:)``; `PGError`,
    ///   `ReportsError`, `EmbeddedClusterError`, `AppleReportError`.
    package func run(_ inputs: Inputs) throws -> WrittenReport {
        // Apple's files are read first: one that cannot be read fails before any database work.
        let apple = try inputs.appleReports.map { try AppleReportSet.read(paths: $0) }
        let episodes = try UpToDateEpisodes(
            target: target, environment: inputs.environment, asOf: inputs.asOf, logger: logger)
        let asOf = episodes.asOf
        let root = Report.root(
            URL(fileURLWithPath: inputs.reportsRoot, isDirectory: true), environment: inputs.environment)
        let directory =
            inputs.out.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? root.appendingPathComponent(Report.directoryName(asOf: asOf), isDirectory: true)
        let written = try ReportWriting.write(
            episodes.source, environment: inputs.environment, asOf: asOf, store: episodes.store,
            reader: episodes.reader, root: root, directory: directory, granularity: inputs.granularity,
            schedule: inputs.schedule, isAsOfGiven: inputs.asOf != nil, apple: apple,
            exchangeRates: inputs.exchangeRates, graceChanges: inputs.graceChanges)
        if inputs.isTheNightlysReport {
            try LatestLink.point(in: root, at: Report.directoryName(asOf: asOf))
        }
        return written
    }
}
