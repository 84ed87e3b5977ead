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
        /// Only the expired episodes of these apps (any, when empty; '' for none).
        package var bundleIds: [String]
        /// Only the expired episodes of these products (any, when empty; '' for none).
        package var productIds: [String]
        /// Only the expired episodes of these storefronts (any, when empty; '' for none).
        package var storefronts: [String]

        package init(
            environment: String, asOf: Int64?, grouping: Returns.Grouping = .month, bundleIds: [String] = [],
            productIds: [String] = [], storefronts: [String] = []
        ) {
            self.bundleIds = bundleIds
            self.environment = environment
            self.asOf = asOf
            self.grouping = grouping
            self.productIds = productIds
            self.storefronts = storefronts
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
        try FilterValueCheck.check(
            environment: inputs.environment, bundleIds: inputs.bundleIds, productIds: inputs.productIds,
            storefronts: inputs.storefronts, connection: episodes.writer)
        let asOf = episodes.asOf
        var expired = CustomerReturns()
        _ = try ReportWriting.stream(
            episodes.source, environment: inputs.environment, asOf: asOf, store: episodes.store,
            reader: episodes.reader
        ) { episode in
            guard inputs.bundleIds.isEmpty || inputs.bundleIds.contains(episode.bundleId ?? ""),
                inputs.productIds.isEmpty || inputs.productIds.contains(episode.productId ?? ""),
                inputs.storefronts.isEmpty || inputs.storefronts.contains(episode.storefront ?? "")
            else { return }
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
