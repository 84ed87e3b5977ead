import Analysis
import AnalysisStore
import EmbeddedPostgres
import Logging
import Reports

/// Brings the episodes up to date and answers how many customers lost to billing came back, and how soon
/// (`churn query returns`): `returns.csv`, grouped by the month of the expiry, the product or the storefront.
package struct ReturnsWorkflow {
    package struct Inputs {
        package var environment: String
        /// The time to answer as of, Unix milliseconds; nil for the latest `signedDate` loaded.
        package var asOf: Int64?
        package var grouping: Returns.Grouping
        /// Only the expired episodes this filter selects: its apps, products and storefronts (as `churn query`'s).
        package var filter: EpisodeFilter

        package init(
            environment: String, asOf: Int64?, grouping: Returns.Grouping = .month, filter: EpisodeFilter = .init()
        ) {
            self.environment = environment
            self.asOf = asOf
            self.grouping = grouping
            self.filter = filter
        }
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

    /// The returns of the environment's expired episodes in scope, as the report finds them: every episode streams
    /// from the stored episodes or, for an earlier as-of time, from episodes built afresh, and the expired ones are
    /// joined with their customers' purchases.
    /// - Throws: ``WorkflowError/nothingLoaded(database:)``, ``WorkflowError/asOfAfterData(asOf:latest:)``,
    ///   ``WorkflowError/unknownFilterValue(option:value:environment:known:)``; `PGError`, `EmbeddedClusterError`.
    package func run(_ inputs: Inputs) throws -> Answer {
        let episodes = try UpToDateEpisodes(
            target: target, environment: inputs.environment, asOf: inputs.asOf, logger: logger)
        try FilterValueCheck.check(environment: inputs.environment, filter: inputs.filter, connection: episodes.writer)
        let asOf = episodes.asOf
        var expired = CustomerReturns()
        _ = try ReportWriting.stream(
            episodes.source, environment: inputs.environment, asOf: asOf, store: episodes.store,
            reader: episodes.reader
        ) { episode in
            guard inputs.filter.matches(episode) else { return }
            try expired.add(episode)
        }
        var tally = Returns.Tally(asOf: asOf, grouping: inputs.grouping)
        try expired.followUps(
            environment: inputs.environment, asOf: asOf, customersAsOfLatest: episodes.source == .stored,
            store: episodes.store
        ) { tally.add($0) }
        return Answer(table: Returns.table(tally.rows, grouping: inputs.grouping), asOf: asOf)
    }
}
