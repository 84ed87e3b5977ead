import Analysis
import Foundation

/// One involuntary-churn report: every table of METRICS.md's "Report files", the Markdown summary, the recovery
/// chart and the headline snapshot, computed once from an `EpisodeDataset`.
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
        /// Inputs quarantined at load time, by reason (`rejected_<reason>` in data quality).
        package var rejections: [String: Int]
        /// The headline figures of the previous report, for "Changes since the previous report".
        package var previous: Headline?

        package init(
            granularity: CalendarPeriod.Granularity = .month,
            schedule: MessageSchedule = .standard,
            environment: String = "Production",
            rejections: [String: Int] = [:],
            previous: Headline? = nil
        ) {
            self.granularity = granularity
            self.schedule = schedule
            self.environment = environment
            self.rejections = rejections
            self.previous = previous
        }
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

    /// One cohort's outcomes, for the summary.
    package struct Cohort: Hashable, Sendable {
        package var period: CalendarPeriod
        package var outcomes: OutcomeCounts
        /// See `CohortMaturity`.
        package var isTooYoung: Bool
    }

    /// One product's outcomes over all cohorts, for the summary.
    package struct Product: Hashable, Sendable {
        /// Empty for episodes without a product.
        package var productId: String
        package var outcomes: OutcomeCounts
    }

    package static let summaryFileName = "summary.md"

    /// Every file a report writes, in the order written: the CSV tables, the chart, the summary, and
    /// `headline.json` last, so a directory with a `headline.json` holds a complete report.
    package static let fileNames: [String] = [
        RecoveryByCohort.fileName, RecoveryCurve.fileName, GracePeriod.fileName, GraceRevenue.fileName,
        MessageBands.fileName, RetryDays.fileName, Revenue.fileName, Flows.fileName, BillingFailures.fileName,
        DataQuality.fileName, SVGChart.fileName, summaryFileName, Headline.fileName,
    ]

    package let dataset: EpisodeDataset
    package let options: Options
    /// One table per CSV file, in METRICS.md's order.
    package let tables: [ReportTable]
    /// `recovery_curve.csv`'s rows: days 1…60.
    package let curve: [RecoveryCurve.Point]
    package let pace: RecoveryPace
    /// Per band of `options.schedule`, in order.
    package let bands: [MessageBands.Figures]
    /// All episodes by outcome.
    package let outcomes: OutcomeCounts
    /// Cohorts ascending.
    package let cohorts: [Cohort]
    /// Products in UTF-8 byte order (a missing product, empty, first).
    package let products: [Product]
    /// All grace episodes.
    package let grace: GracePeriod.Counts
    package let graceComparison: GraceComparison
    /// Revenue saved in grace, by currency.
    package let revenue: [String: GraceRevenue.Saved]
    /// The snapshot written to `headline.json`.
    package let headline: Headline

    /// Computes every figure of the report.
    ///
    /// - Parameters:
    ///   - dataset: the episodes and counts of the report's scope, built for `options.environment`.
    ///   - options: cohorts, schedule, environment, rejections and the previous report's figures.
    package init(dataset: EpisodeDataset, options: Options = Options()) {
        self.dataset = dataset
        self.options = options
        let asOf = dataset.asOf
        let episodes = dataset.episodes
        tables = ChurnReport.tables(
            dataset, rejections: options.rejections,
            options: ChurnReport.Options(granularity: options.granularity, schedule: options.schedule))
        curve = RecoveryCurve.points(episodes: episodes, asOf: asOf)
        pace = RecoveryPace(points: curve)
        bands = MessageBands.figures(episodes: episodes, asOf: asOf, schedule: options.schedule)
        graceComparison = GraceComparison(episodes: episodes)
        revenue = GraceRevenue.revenue(episodes: episodes)

        var outcomes = OutcomeCounts()
        var byCohort: [CalendarPeriod: OutcomeCounts] = [:]
        var byProduct: [String: OutcomeCounts] = [:]
        var grace = GracePeriod.Counts()
        for episode in episodes {
            outcomes.add(episode)
            byCohort[episode.cohort(options.granularity), default: OutcomeCounts()].add(episode)
            byProduct[episode.productId ?? "", default: OutcomeCounts()].add(episode)
            if episode.hasGrace { grace.add(episode, asOf: asOf) }
        }
        self.outcomes = outcomes
        self.grace = grace
        cohorts = byCohort.keys.sorted().map { period in
            Cohort(
                period: period, outcomes: byCohort[period] ?? OutcomeCounts(),
                isTooYoung: CohortMaturity.isTooYoung(period, asOf: asOf))
        }
        products = byProduct.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).map { product in
            Product(productId: product, outcomes: byProduct[product] ?? OutcomeCounts())
        }
        headline = Self.headline(
            dataset: dataset, options: options, outcomes: outcomes, grace: grace, comparison: graceComparison,
            revenue: revenue, pace: pace)
    }

    /// The report's as-of time (Unix ms).
    package var asOf: Int64 { dataset.asOf }

    /// The name of a report's directory under `reports/`: the UTC date of its as-of time, `2024-07-19`.
    package static func directoryName(asOf: Int64) -> String {
        UTCTime.date(asOf)
    }

    /// The contents of every file, in `fileNames` order.
    ///
    /// - Throws: `ReportsError` if the headline figures cannot be encoded.
    package func files() throws -> [File] {
        let csv = tables.map { File(name: $0.name, contents: CSVWriter.render($0)) }
        return csv + [
            File(
                name: SVGChart.fileName,
                contents: SVGChart.recoveryCurve(
                    curve, schedule: options.schedule, environment: options.environment, asOf: asOf)),
            File(name: Self.summaryFileName, contents: SummaryDocument(report: self).markdown),
            File(name: Headline.fileName, contents: try headline.encoded()),
        ]
    }

    /// Writes every file into `directory`, creating it if needed; each file is replaced atomically.
    ///
    /// - Throws: `ReportsError` naming the file that could not be written.
    package func write(to directory: URL) throws {
        try ReportDirectory.write(try files(), to: directory)
    }

    private static func headline(
        dataset: EpisodeDataset,
        options: Options,
        outcomes: OutcomeCounts,
        grace: GracePeriod.Counts,
        comparison: GraceComparison,
        revenue: [String: GraceRevenue.Saved],
        pace: RecoveryPace
    ) -> Headline {
        let byteOrder: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let checks =
            dataset.dataQuality.checks.map { Headline.Check(check: $0.check, count: $0.count) }
            + options.rejections.keys.sorted(by: byteOrder).map { reason in
                Headline.Check(check: "rejected_" + reason, count: options.rejections[reason] ?? 0)
            }
        return Headline(
            asOf: dataset.asOf,
            environment: options.environment,
            all: Headline.Outcomes(outcomes),
            withGrace: Headline.Outcomes(comparison.withGrace),
            withoutGrace: Headline.Outcomes(comparison.withoutGrace),
            grace: Headline.GraceSaves(
                graceEpisodes: grace.graceEpisodes, savedInGrace: grace.savedInGrace, decided: grace.decided),
            revenue: revenue.keys.sorted(by: byteOrder).map { currency in
                let saved = revenue[currency] ?? GraceRevenue.Saved()
                return Headline.Revenue(currency: currency, savedEpisodes: saved.episodes, milliunits: saved.revenue)
            },
            recoveryCurve: pace.marks.map { Headline.CurveMark(day: $0.day, cifRecovery: $0.cifRecovery) },
            dataQuality: checks
        )
    }
}
