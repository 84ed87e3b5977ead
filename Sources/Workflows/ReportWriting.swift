import Analysis
import AnalysisStore
import AppleReports
import Foundation
import PGClient
import Reports

/// Writes a report directory, comparing with the previous report of the same environment and database in the same
/// root; shared by the report and nightly workflows.
package enum ReportWriting {
    /// Where a report's episodes come from.
    package enum Episodes: Sendable {
        /// The stored episodes, finished as of the as-of time: exact at or after the latest `signedDate` loaded.
        case stored
        /// Episodes built afresh from the notifications signed by the as-of time, for an earlier as-of
        /// (``StoredDataset/streamBuilt(environment:asOf:reader:_:)``).
        case builtAfresh

        /// The source for a report as of `asOf` when the latest `signedDate` loaded is `latest`.
        package init(asOf: Int64, latest: Int64) {
            self = asOf >= latest ? .stored : .builtAfresh
        }
    }

    /// Writes the report of `environment` as of `asOf`, streaming `episodes` through the report's figures without
    /// holding them; `reader` streams notifications, for the episodes built afresh and for those as of 61 days
    /// earlier that the forecast check needs.
    package static func write(
        _ episodes: Episodes,
        environment: String,
        asOf: Int64,
        store: StoredDataset,
        reader: PGConnection,
        root: URL,
        directory: URL,
        granularity: CalendarPeriod.Granularity = .month,
        schedule: MessageSchedule = .standard,
        isAsOfGiven: Bool,
        apple: AppleReportSet? = nil,
        exchangeRates: ExchangeRates? = nil,
        graceChanges: [GraceChange.Stated] = []
    ) throws -> WrittenReport {
        try writeStreamed(
            environment: environment, asOf: asOf, store: store, reader: reader, root: root, directory: directory,
            granularity: granularity, schedule: schedule, isAsOfGiven: isAsOfGiven,
            customersAsOfLatest: episodes == .stored, apple: apple, exchangeRates: exchangeRates,
            graceChanges: graceChanges
        ) { body in
            try stream(episodes, environment: environment, asOf: asOf, store: store, reader: reader, body)
        }
    }

    /// Streams the episodes of `environment` as of `asOf` from `episodes`' source through `body`, holding none.
    /// - Returns: the dataset's counts (data quality, renewals).
    static func stream(
        _ episodes: Episodes, environment: String, asOf: Int64, store: StoredDataset, reader: PGConnection,
        _ body: (Episode) throws -> Void
    ) throws -> EpisodeDataset {
        switch episodes {
        case .stored: try store.streamStored(environment: environment, asOf: asOf, body)
        case .builtAfresh: try store.streamBuilt(environment: environment, asOf: asOf, reader: reader, body)
        }
    }

    /// Writes the report of the episodes `episodes` streams, which returns the dataset's counts, with the forecast
    /// check (``ForecastCheckTally``): for a report with `--as-of`, a first pass over the episodes built as of 61 days
    /// earlier gives the chances of the episodes open then and the report's own pass keeps only those episodes'
    /// outcomes; otherwise the report's own pass derives both.
    private static func writeStreamed(
        environment: String,
        asOf: Int64,
        store: StoredDataset,
        reader: PGConnection,
        root: URL,
        directory: URL,
        granularity: CalendarPeriod.Granularity,
        schedule: MessageSchedule,
        isAsOfGiven: Bool,
        customersAsOfLatest: Bool,
        apple: AppleReportSet?,
        exchangeRates: ExchangeRates?,
        graceChanges: [GraceChange.Stated],
        episodes: (_ body: (Episode) throws -> Void) throws -> EpisodeDataset
    ) throws -> WrittenReport {
        var (options, previousReportProblem) = try options(
            asOf: asOf, store: store, environment: environment, root: root, granularity: granularity,
            schedule: schedule, isAsOfGiven: isAsOfGiven)
        options.exchangeRates = exchangeRates
        options.statedGraceChanges = graceChanges
        var tally = Report.Tally(asOf: asOf, options: options)
        var check = try ForecastCheckTally(
            rebuilt: isAsOfGiven, environment: environment, asOf: asOf, store: store, reader: reader)
        var expired = CustomerReturns()
        var billingIssueDays = apple.map { _ in BillingIssueDays.Tally(asOf: asOf) }
        // The app's message log, when one is loaded: its events linked to this environment's episodes as they pass.
        var messages = try store.messageLog(environment: environment, asOf: asOf).map {
            MessageLog.Tally(log: $0, asOf: asOf, schedule: schedule)
        }
        let counts = try episodes { episode in
            tally.add(episode)
            check.add(episode)
            try expired.add(episode)
            billingIssueDays?.add(episode)
            messages?.add(episode)
        }
        // A grace change needs the episodes of its windows, known once every episode has been seen: a second pass.
        // (Not `rows(streamingAgain:)`: `episodes` is itself a non-escaping parameter, which exclusivity forbids
        // handing on.)
        var evaluation = tally.graceChangeEvaluation
        if !evaluation.isEmpty {
            _ = try episodes { evaluation.add($0) }
        }
        let graceChanges = evaluation.rows()
        // The expired episodes' returns: the server finds them while the files that do not show them are written,
        // and the connection takes nothing else meanwhile. The spool of expired episodes goes once they are sent.
        var returns = try expired.start(
            environment: environment, asOf: asOf, customersAsOfLatest: customersAsOfLatest, store: store)
        expired = CustomerReturns()
        // Handed over: the tally's memory (a few numbers per episode) goes before the files are written.
        var report = Report(
            consume tally, dataQuality: counts.dataQuality, renewals: counts.renewals, forecastCheck: check.check,
            graceChanges: graceChanges, messages: messages)
        if let apple, let billingIssueDays {
            report.appleComparison = AppleComparison(ours: billingIssueDays, apple: apple)
        }
        try report.write(to: directory) {
            guard let running = returns.take() else { return [] }
            var tally = Returns.Tally(asOf: asOf)
            try running.read { tally.add($0) }
            return tally.rows
        }
        return WrittenReport(
            report: report, directory: directory, asOf: asOf, previousReportProblem: previousReportProblem)
    }

    /// The forecast check of a report: exact, from the episodes built afresh as of 61 days earlier, for a report
    /// with `--as-of`; derived from the report's own episodes otherwise (``ForecastCheck/Derived``), with no
    /// second build.
    private struct ForecastCheckTally {
        /// One of the two, never both: optional so that each is changed in place.
        private var rebuilt: ForecastCheck.Tally?
        private var derived: ForecastCheck.Derived?

        /// - Parameter rebuilt: whether to build the episodes as of 61 days before `asOf` afresh
        ///   (``StoredDataset/streamBuilt(environment:asOf:reader:_:)``), streamed: only the curve's durations and the
        ///   open episodes' keys are kept.
        init(rebuilt: Bool, environment: String, asOf: Int64, store: StoredDataset, reader: PGConnection) throws {
            guard rebuilt else {
                derived = ForecastCheck.Derived(asOf: asOf)
                return
            }
            var then = ForecastCheck.Then(checkTime: ForecastCheck.checkTime(asOf: asOf))
            _ = try store.streamBuilt(environment: environment, asOf: then.checkTime, reader: reader) { then.add($0) }
            self.rebuilt = ForecastCheck.Tally(forecast: then.forecast)
        }

        mutating func add(_ episode: Episode) {
            rebuilt?.add(episode)
            derived?.add(episode)
        }

        var check: ForecastCheck.Check {
            rebuilt?.check ?? derived?.check ?? .empty(asOf: 0)
        }
    }

    /// The report's options: the database's identity, rejections and latest data, and the previous report's
    /// headline (none when it cannot be read: then why, for a warning).
    private static func options(
        asOf: Int64,
        store: StoredDataset,
        environment: String,
        root: URL,
        granularity: CalendarPeriod.Granularity,
        schedule: MessageSchedule,
        isAsOfGiven: Bool
    ) throws -> (Report.Options, previousReportProblem: String?) {
        let databaseID = try store.databaseID()
        var previous: PreviousHeadline?
        var problem: String?
        do {
            previous = try Headline.latest(
                inReportsRoot: root, before: asOf, environment: environment, databaseID: databaseID,
                granularity: granularity)
        } catch {
            problem = "\(error)"
        }
        let options = Report.Options(
            granularity: granularity, schedule: schedule, environment: environment, databaseID: databaseID,
            rejections: try store.loadQuality(environment: environment, asOf: asOf).rejections, previous: previous,
            latestSignedDate: try store.latestSignedDate(), isAsOfGiven: isAsOfGiven
        )
        return (options, problem)
    }
}
