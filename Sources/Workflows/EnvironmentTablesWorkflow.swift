import Analysis
import AnalysisStore
import Logging
import PGClient
import Reports
import Store

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
        let writer = try target.connectToStored(logger: logger)
        let reader = try target.connect(logger: logger)
        try EpisodeAnalyzer(writer: writer, reader: reader, logger: logger).analyze(environment: environment)
        let store = StoredDataset(connection: writer)
        guard let latest = try store.latestSignedDate() else {
            throw WorkflowError.nothingLoaded(database: writer.target)
        }
        let asOf = asOf ?? latest
        try AsOfCheck.check(asOf: asOf, latest: latest, logger: logger)
        var tally = ChurnReport.Tally(asOf: asOf)
        let counts =
            switch ReportWriting.Episodes(asOf: asOf, latest: latest) {
            case .stored: try store.streamStored(environment: environment, asOf: asOf) { tally.add($0) }
            case .builtAfresh:
                try store.streamBuilt(environment: environment, asOf: asOf, reader: reader) { tally.add($0) }
            }
        let rejections = try store.loadQuality(environment: environment, asOf: asOf).rejections
        let report = ChurnReport(
            tally, dataQuality: counts.dataQuality, renewals: counts.renewals, rejections: rejections)
        switch table {
        case .billingFailures: return Answer(table: BillingFailures.table(report.billingFailures), asOf: asOf)
        case .dataQuality: return Answer(table: DataQuality.table(report.dataQuality), asOf: asOf)
        }
    }
}
