import Analysis
import AnalysisStore
import EmbeddedPostgres
import Logging
import Reports

/// Brings the episodes up to date and lays out report tables that describe a whole environment, not a selection of
/// episodes: `billing_failures.csv` (renewal charges against failures, per month) and `data_quality.csv` (what
/// the load and the analysis counted, refused or inferred). `churn query billing-failures` and `data-quality`.
package struct EnvironmentTablesWorkflow {
    /// A table this workflow answers with.
    package enum Table: Sendable, CaseIterable {
        case billingFailures
        case dataQuality
    }

    package struct Answer {
        package var table: ReportTable
        /// The time the answer is as of, Unix milliseconds.
        package var asOf: Int64
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// The report's table `table` of `environment` as of `asOf` (nil: the latest `signedDate` loaded): every
    /// episode streams through the report's tally, from the stored episodes or, for an earlier as-of time, from
    /// episodes built afresh, as `churn report` does.
    /// - Throws: ``WorkflowError/nothingLoaded(database:)``, ``WorkflowError/asOfAfterData(asOf:latest:)``;
    ///   `PGError`, `EmbeddedClusterError`.
    package func run(_ table: Table, environment: String, asOf: Int64?) throws -> Answer {
        let episodes = try UpToDateEpisodes(target: target, environment: environment, asOf: asOf, logger: logger)
        let asOf = episodes.asOf
        var tally = ChurnReport.Tally(asOf: asOf)
        let counts = try ReportWriting.stream(
            episodes.source, environment: environment, asOf: asOf, store: episodes.store, reader: episodes.reader
        ) { tally.add($0) }
        let rejections = try episodes.store.loadQuality(environment: environment, asOf: asOf).rejections
        let report = ChurnReport(
            tally, dataQuality: counts.dataQuality, renewals: counts.renewals, rejections: rejections)
        switch table {
        case .billingFailures: return Answer(table: BillingFailures.table(report.billingFailures), asOf: asOf)
        case .dataQuality: return Answer(table: DataQuality.table(report.dataQuality), asOf: asOf)
        }
    }
}
