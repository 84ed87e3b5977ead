import Analysis
import AppleReports
import Foundation

/// One involuntary-churn report: every table of METRICS.md's "Report files", the Markdown summary, the two charts
/// and the headline snapshot, computed once from an `EpisodeDataset` or from episodes streamed through a
/// ``Tally``. A report holds figures, never episodes.
///
/// The files depend only on the dataset and the options, never on the clock, so the same data gives the same
/// bytes. Typical use:
/// ```swift
/// let report = Report(dataset: dataset, options: options)
/// try report.write(to: reportsRoot.appendingPathComponent(Report.directoryName(asOf: dataset.asOf)))
/// ```
package struct Report: Sendable {
    /// Choices a user can make about the report.
    package struct Options: Hashable, Sendable {
        /// Cohorts by month (default) or ISO week.
        package var granularity: CalendarPeriod.Granularity
        package var schedule: MessageSchedule
        /// The `data.environment` the dataset was built for (`Production` unless asked otherwise).
        package var environment: String
        /// The identity of the database the dataset comes from (`database_identity.id`), kept in `headline.json`;
        /// nil for a report made without a database.
        package var databaseID: String?
        /// Inputs quarantined at load time, by reason (`rejected_<reason>` in data quality).
        package var rejections: [String: Int]
        /// The previous report's headline figures, for "Changes since the previous report".
        package var previous: PreviousHeadline?
        /// The latest `signedDate` loaded (any environment, Unix ms), for the note on recent data that may still
        /// arrive; nil when unknown, which counts as the as-of time itself.
        package var latestSignedDate: Int64?
        /// Whether the as-of time was asked for (`churn report --as-of`) rather than the latest data's, kept in
        /// `headline.json`: such a report is never a later report's previous one.
        package var isAsOfGiven: Bool
        /// The user's exchange rates (`--exchange-rates FILE`), for the summary's one figure of what is at stake; nil
        /// for none. No other file depends on them.
        package var exchangeRates: ExchangeRates?
        /// Grace changes the user states (`--grace-change`), which replace those detected in their app and month.
        package var statedGraceChanges: [GraceChange.Stated] = []

        package init(
            granularity: CalendarPeriod.Granularity = .month,
            schedule: MessageSchedule = .standard,
            environment: String = "Production",
            databaseID: String? = nil,
            rejections: [String: Int] = [:],
            previous: PreviousHeadline? = nil,
            latestSignedDate: Int64? = nil,
            isAsOfGiven: Bool = false,
            exchangeRates: ExchangeRates? = nil
        ) {
            self.granularity = granularity
            self.schedule = schedule
            self.environment = environment
            self.databaseID = databaseID
            self.rejections = rejections
            self.previous = previous
            self.latestSignedDate = latestSignedDate
            self.isAsOfGiven = isAsOfGiven
            self.exchangeRates = exchangeRates
        }
    }

    /// Where the reports of `environment` go under a reports root: Production's in the root itself, another
    /// environment's in a subdirectory named after it (`reports/sandbox/`), with its own dated directories and its
    /// own `latest`, so that a Sandbox report never replaces a Production one.
    package static func root(_ root: URL, environment: String) -> URL {
        guard environment != "Production" else { return root }
        let name = String(environment.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
        return root.appendingPathComponent(name.isEmpty ? "other" : name, isDirectory: true)
    }

    /// One file of the report directory.
    package struct File: Hashable, Sendable {
        package var name: String
        package var contents: String

        package init(name: String, contents: String) {
            self.name = name
            self.contents = contents
        }
    }

    /// One cohort's episodes, for the summary.
    package struct Cohort: Hashable, Sendable {
        package var period: CalendarPeriod
        package var figures: EpisodeGroup
    }

    /// One product's episodes over all cohorts, for the summary.
    package struct Product: Hashable, Sendable {
        /// Empty for episodes without a product.
        package var productId: String
        package var figures: EpisodeGroup
    }

    /// One storefront's episodes over all cohorts.
    package struct Storefront: Hashable, Sendable {
        /// The App Store country code (ISO 3166-1 alpha-3); empty for episodes without one.
        package var storefront: String
        package var figures: EpisodeGroup
    }

    /// One app (bundle id) of the report's episodes: a database may hold several, and a report adds them up.
    package struct App: Hashable, Sendable {
        /// Empty for episodes without a bundle id.
        package var bundleId: String
        package var episodes: Int
    }

    /// A grace length found in the data and the retry day holding its end, marked in the summary and on both charts.
    package struct GraceLength: Hashable, Sendable {
        /// The configured grace period in whole days (`Episode.graceDays`).
        package var days: Int
        /// The retry day holding the grace end of a grace period of exactly `days` days: `days` + 1.
        package var day: Int { days + 1 }
        /// Grace episodes with this length.
        package var episodes: Int

        /// How the summary and both charts say where it ends: `16-day grace ends on day 17`.
        package var endLabel: String { "\(days)-day grace ends on day \(day)" }
    }

    package static let summaryFileName = "summary.md"

    /// Every file a report writes, in the order written: the CSV tables, the charts, the summary, and
    /// `headline.json` last, so a directory with a `headline.json` holds a complete report.
    package static let fileNames: [String] = [
        RecoveryByCohort.fileName, RecoveryCurve.fileName, GracePeriod.fileName, GraceRevenue.fileName,
        MessageBands.fileName, RetryDays.fileName, Revenue.fileName, OpenEpisodes.fileName, ForecastCheck.fileName,
        GraceWhatIf.fileName, Returns.fileName, Flows.fileName, BillingFailures.fileName, DataQuality.fileName,
        RecoveryCurveChart.fileName,
        RecoveryHazardChart.fileName, summaryFileName, Headline.fileName,
    ]

    /// The number of files this report writes, counted from what ``write(to:rowsPerPart:)`` writes: the CSV tables
    /// (`recovery_curve_commitment.csv` among them when the scope holds a commitment episode), `apple_comparison.csv`
    /// when Apple's reports were given, and the documents.
    package var fileCount: Int {
        figures.tableFiles(rowsPerPart: Int.max).count + (appleComparison == nil ? 0 : 1) + documents.count
    }

    /// The days of the recovery curve `headline.json` keeps: 3, 16 and 28, the grace lengths the App Store offers,
    /// and 60, where billing retry ends. Fixed, so that snapshots compare; the summary and the chart mark the grace
    /// lengths of the data (``graceLengths``) instead.
    package static let curveMarkDays = [3, 16, 28, 60]
    /// The charts mark at most this many grace lengths, the most frequent ones.
    package static let markedGraceLengths = 4
    /// Notifications can arrive this long after they were signed: the App Store retries one it could not deliver
    /// 1, 12, 24, 48 and 72 hours after the previous attempt (157 hours in all).
    package static let lateDeliveryWindow: Int64 = 7 * Milliseconds.day

    /// The report's as-of time (Unix ms).
    package let asOf: Int64
    /// The dataset's data-quality counts.
    package let dataQuality: DataQualityCounts
    package let options: Options
    /// Every figure of the CSV files, as values.
    package private(set) var figures: ChurnReport
    /// One table per CSV file, in METRICS.md's order, made anew at each use.
    package var tables: [ReportTable] { figures.tables }
    /// `recovery_curve.csv`'s rows: days 1…60.
    package let curve: [RecoveryCurve.Point]
    /// `cif_recovery` on ``curveMarkDays``.
    package let curveMarks: [Headline.CurveMark]
    /// `retry_days.csv`'s rows: days 1…60.
    package let retryDays: [RetryDays.Day]
    /// Per band of `options.schedule`, in order.
    package let bands: [MessageBands.Figures]
    /// The `(all)` row of `message_bands.csv`: the bands' hazard ratios pooled; nil when no band has message days
    /// to compare.
    package let pooledRatio: RateRatio?
    /// All episodes.
    package let all: EpisodeGroup
    /// Cohorts ascending.
    package let cohorts: [Cohort]
    /// Products in UTF-8 byte order (a missing product, empty, first).
    package let products: [Product]
    /// Storefronts, the most episodes first (ties in UTF-8 byte order; a missing storefront is empty).
    package let storefronts: [Storefront]
    /// The apps of the episodes, the most episodes first (ties in UTF-8 byte order).
    package let apps: [App]
    /// All grace episodes.
    package let grace: GracePeriod.Counts
    /// Grace episodes whose grace end is unknown: in no save rate.
    package let graceEndUnknown: Int
    /// Episodes with and without a grace period.
    package let withGrace: EpisodeGroup
    package let withoutGrace: EpisodeGroup
    /// The grace lengths the summary and both charts mark, by day.
    package let graceLengths: [GraceLength]
    /// Per currency (UTF-8 byte order): `revenue.csv`'s rows and the episodes saved in grace.
    package let money: [Headline.Money]
    /// What retry is expected to bring back of the open episodes' price at stake, per currency of that price.
    package let expectedBack: [String: OpenEpisodes.Expected]
    /// `open_episodes.csv`'s rows: every open episode with its recovery chance, by t0.
    package let openEpisodes: [OpenEpisodes.Row]
    /// `forecast_check.csv`'s figures: the episodes open 61 days before the as-of time, the chances the method gave
    /// them then and what became of them.
    package let forecastCheck: ForecastCheck.Check
    /// `grace_whatif.csv`'s rows: per product and grace length, what the mature episodes' recoveries kept and gave.
    package let graceWhatIf: [GraceWhatIf.Row]
    /// `flows.csv`'s rows, oldest first.
    package let weeks: [Flows.Week]
    /// The snapshot written to `headline.json`.
    package let headline: Headline
    /// Our billing-issue days against App Store Connect's reports, when report files were given
    /// (`churn report --apple-reports DIR`): written to `apple_comparison.csv` and a section of the summary.
    package var appleComparison: AppleComparison?

    /// Computes every figure of the report.
    ///
    /// - Parameters:
    ///   - dataset: the episodes and counts of the report's scope, built for `options.environment`.
    ///   - options: cohorts, schedule, environment, rejections, the previous report's figures and the latest data.
    ///   - forecastCheck: the check of the method on the episodes open 61 days before (``ForecastCheck``); nil
    ///     when the episodes as of then are not at hand, which reads as no history then.
    package init(dataset: EpisodeDataset, options: Options = Options(), forecastCheck: ForecastCheck.Check? = nil) {
        var tally = Tally(asOf: dataset.asOf, options: options)
        for episode in dataset.episodes { tally.add(episode) }
        self.init(
            tally, dataQuality: dataset.dataQuality, renewals: dataset.renewals, forecastCheck: forecastCheck,
            graceChanges: tally.graceChangeEvaluation.rows(addingAgain: dataset.episodes))
    }

    /// Computes every figure of the report from episodes already added up.
    ///
    /// - Parameters:
    ///   - tally: every finished episode of the report's scope, added.
    ///   - dataQuality: the dataset's counts, `inferred_expiry` and the grace-end counts included
    ///     (``EpisodeDataset/dataQuality``).
    ///   - renewals: ordinary renewals per month (``EpisodeDataset/renewals``).
    ///   - forecastCheck: the check of the method on the episodes open 61 days before; nil for none.
    ///   - returns: `returns.csv`'s rows; none when not at hand.
    ///   - graceChanges: `grace_change.csv`'s rows, from a second pass over the episodes
    ///     (``Tally/graceChangeEvaluation``); none without a change.
    ///   - messages: the app's message log linked to the episodes (``MessageLog/Tally``), for `message_log.csv`,
    ///     `message_experiment.csv` and their section; nil without a log.
    package init(
        _ tally: consuming Tally, dataQuality: DataQualityCounts, renewals: PeriodCounts,
        forecastCheck: ForecastCheck.Check? = nil, returns: [Returns.Row] = [], graceChanges: [GraceChange.Row] = [],
        messages: MessageLog.Tally? = nil
    ) {
        let options = tally.options
        let asOf = tally.asOf
        self.asOf = asOf
        var dataQuality = dataQuality
        if let messages { dataQuality.messageEventOutsideRetry = messages.outsideRetry }
        self.dataQuality = dataQuality
        self.options = options
        // The figures' tally is taken out of `tally` (an empty one left in its place), so that it is held once and
        // the report's open-episode list is moved out of it rather than copied.
        let figuresTally = tally.figures
        tally.figures = ChurnReport.Tally(asOf: asOf)
        let figures = ChurnReport(
            consume figuresTally, dataQuality: dataQuality, renewals: renewals, rejections: options.rejections,
            forecastCheck: forecastCheck, returns: returns, graceChanges: graceChanges,
            messageLog: messages?.shownDayRows ?? [], messageExperiment: messages?.experimentRows ?? [])
        self.figures = figures
        let curve = figures.recoveryCurve
        self.curve = curve
        curveMarks = Self.curveMarkDays.map { day in
            Headline.CurveMark(day: day, cifRecovery: Self.cifRecovery(curve, byDay: day))
        }
        retryDays = figures.retryDays
        bands = figures.messageBands
        pooledRatio = MessageBands.pooled(figures.messageBands)
        weeks = figures.flows
        openEpisodes = figures.openEpisodes
        self.forecastCheck = figures.forecastCheck
        graceWhatIf = figures.graceWhatIf
        expectedBack = Dictionary(uniqueKeysWithValues: figures.revenue.map { ($0.currency, $0.expected) })

        let all = tally.all
        let withGrace = tally.withGrace
        let withoutGrace = tally.withoutGrace
        let grace = tally.grace
        self.all = all
        self.grace = grace
        self.graceEndUnknown = tally.graceEndUnknown
        self.withGrace = withGrace
        self.withoutGrace = withoutGrace
        graceLengths = Self.markedLengths(tally.lengths)
        cohorts = tally.byCohort.keys.sorted().map { period in
            Cohort(period: period, figures: tally.byCohort[period] ?? EpisodeGroup())
        }
        products = tally.byProduct.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { product in
            Product(productId: product, figures: tally.byProduct[product] ?? EpisodeGroup())
        }
        storefronts = tally.byStorefront.map { Storefront(storefront: $0.key, figures: $0.value) }.sorted {
            $0.figures.outcomes.episodes != $1.figures.outcomes.episodes
                ? $0.figures.outcomes.episodes > $1.figures.outcomes.episodes
                : $0.storefront.utf8.lexicographicallyPrecedes($1.storefront.utf8)
        }
        apps = tally.episodesByApp.map { App(bundleId: $0.key, episodes: $0.value) }.sorted {
            $0.episodes != $1.episodes
                ? $0.episodes > $1.episodes : $0.bundleId.utf8.lexicographicallyPrecedes($1.bundleId.utf8)
        }
        let savedInGrace = Dictionary(uniqueKeysWithValues: figures.graceRevenue.map { ($0.currency, $0.saved) })
        money = figures.revenue.map { row in
            Headline.Money(
                currency: row.currency, amounts: row.amounts,
                savedInGraceEpisodes: savedInGrace[row.currency]?.episodes ?? 0)
        }
        let checks = figures.dataQuality.map { Headline.Check(check: $0.check, count: $0.count) }
        headline = Headline(
            asOf: asOf,
            environment: options.environment,
            databaseID: options.databaseID,
            asOfGiven: options.isAsOfGiven ? true : nil,
            granularity: options.granularity,
            all: Headline.Outcomes(all.outcomes),
            mature: Headline.Mature(all.mature),
            withGrace: Headline.Outcomes(withGrace.outcomes),
            withoutGrace: Headline.Outcomes(withoutGrace.outcomes),
            grace: Headline.GraceSaves(
                graceEpisodes: grace.graceEpisodes, savedInGrace: grace.savedInGrace, decided: grace.decided),
            money: money,
            recoveryCurve: curveMarks,
            dataQuality: checks
        )
    }

    /// All episodes by outcome.
    package var outcomes: OutcomeCounts { all.outcomes }

    /// `cif_recovery` of the recovery curve on `day` (0 before day 1 and for a day it does not hold).
    package func cifRecovery(byDay day: Int) -> Double {
        Self.cifRecovery(curve, byDay: day)
    }

    /// `cif_recovery` of `curve` on `day`; 0 for a day it does not hold.
    static func cifRecovery(_ curve: [RecoveryCurve.Point], byDay day: Int) -> Double {
        curve.first { $0.day == day }?.cifRecovery ?? 0
    }

    /// Whether notifications signed shortly before the as-of time may still be missing: the data hold less than
    /// ``lateDeliveryWindow`` of notifications signed after the as-of time (an unknown latest `signedDate` counts
    /// as the as-of time). The summary then says that the latest 7 days may still be incomplete.
    package var mayMissLateNotifications: Bool {
        let latest = options.latestSignedDate ?? asOf
        let (ahead, overflow) = latest.subtractingReportingOverflow(asOf)
        return !overflow && ahead < Self.lateDeliveryWindow
    }

    /// The name of a report's directory under `reports/`: the UTC date of its as-of time, `2024-07-19`.
    package static func directoryName(asOf: Int64) -> String {
        UTCTime.date(asOf)
    }

    /// Whether `name` has the shape of ``directoryName(asOf:)``: `YYYY-MM-DD`, digits and dashes.
    package static func isDatedDirectoryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 10 else { return false }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        return bytes.indices.allSatisfy { index in
            index == 4 || index == 7 ? bytes[index] == UInt8(ascii: "-") : digits.contains(bytes[index])
        }
    }

    /// The contents of every file, in `fileNames` order.
    ///
    /// - Throws: `ReportsError` if the headline figures cannot be encoded.
    package func files() throws -> [File] {
        let csv = tables.map { File(name: $0.name, contents: CSVWriter.render($0)) }
        let apple = appleComparison.map { comparison in
            [File(name: AppleComparison.fileName, contents: CSVWriter.render(comparison.table()))]
        }
        return try csv + (apple ?? []) + documents.map { try $0() }
    }

    /// The files after the CSV tables, each made when called: the charts, the summary and the headline.
    private var documents: [() throws -> File] { charts + texts }

    /// The charts, which do not show the returns.
    private var charts: [() throws -> File] {
        [
            { File(name: RecoveryCurveChart.fileName, contents: RecoveryCurveChart(report: self).svg) },
            { File(name: RecoveryHazardChart.fileName, contents: RecoveryHazardChart(report: self).svg) },
        ]
    }

    /// The summary and the headline.
    private var texts: [() throws -> File] {
        [
            { File(name: Self.summaryFileName, contents: SummaryDocument(report: self).markdown) },
            { File(name: Headline.fileName, contents: try self.headline.encoded()) },
        ]
    }

    /// Rows of `open_episodes.csv` made into cells at a time when the report is written.
    package static let rowsPerPart = 4_096

    /// Writes every file into `directory`, creating it if needed; each file is replaced atomically. The files are
    /// made and written one at a time, and `open_episodes.csv` in parts of ``rowsPerPart`` rows, so a report of a
    /// large scope never holds all its files, or all the open episodes' cells, at once. The bytes are those of
    /// ``files()`` whatever `rowsPerPart` is.
    ///
    /// - Throws: `ReportsError` naming the file that could not be written.
    package func write(to directory: URL, rowsPerPart: Int = Self.rowsPerPart) throws {
        var report = self
        try report.write(to: directory, rowsPerPart: rowsPerPart, returns: nil)
    }

    /// Writes every file as ``write(to:rowsPerPart:)`` does, with `returns.csv`'s rows from `returns`, called once
    /// every file that does not show them is written: the rows may still be in the making meanwhile (the server
    /// finding the expired episodes' returns while this process writes). They then become the report's.
    ///
    /// - Throws: `ReportsError` naming the file that could not be written, or what `returns` throws.
    package mutating func write(
        to directory: URL, rowsPerPart: Int = Self.rowsPerPart, returns: (() throws -> [Returns.Row])?
    ) throws {
        try ReportDirectory.prepare(directory)
        for file in figures.tableFiles(rowsPerPart: rowsPerPart) where file.name != Returns.fileName {
            try ReportDirectory.writeAtomically(to: directory.appendingPathComponent(file.name)) { write in
                for index in 0..<file.partCount {
                    var text = ""
                    CSVWriter.write(file.part(index), to: &text, header: index == 0)
                    try write(Data(text.utf8))
                }
            }
        }
        if let appleComparison {
            try writeTable(appleComparison.table(), in: directory)
        }
        for make in charts { try writeDocument(make(), in: directory) }
        if let returns { figures.returns = try returns() }
        try writeTable(Returns.table(figures.returns), in: directory)
        // Made now, with the returns in.
        for make in texts { try writeDocument(make(), in: directory) }
    }

    private func writeTable(_ table: ReportTable, in directory: URL) throws {
        try ReportDirectory.writeAtomically(
            Data(CSVWriter.render(table).utf8), to: directory.appendingPathComponent(table.name))
    }

    private func writeDocument(_ file: File, in directory: URL) throws {
        try ReportDirectory.writeAtomically(Data(file.contents.utf8), to: directory.appendingPathComponent(file.name))
    }

    /// The most frequent grace lengths (ties: the shorter), at most ``markedGraceLengths``, whose end falls in
    /// days 1…60, by day.
    private static func markedLengths(_ episodesByLength: [Int: Int]) -> [GraceLength] {
        episodesByLength
            .filter { RetryDays.days.contains($0.key + 1) }
            .map { GraceLength(days: $0.key, episodes: $0.value) }
            .sorted { $0.episodes != $1.episodes ? $0.episodes > $1.episodes : $0.days < $1.days }
            .prefix(markedGraceLengths)
            .sorted { $0.days < $1.days }
    }
}
