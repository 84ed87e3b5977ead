import AppStoreServerAPI
import EmbeddedPostgres
import HistoryFetch
import Ingest
import Logging

/// Compares Apple's notification history for a range with what the database stores (`churn gaps`); writes
/// nothing.
package struct GapsWorkflow {
    package struct Inputs {
        package var credentials: APICredentials
        package var baseURL: String
        package var retry: RetryPolicy
        /// The range, `[start, end)` in Unix milliseconds.
        package var range: (start: Int64, end: Int64)

        package init(
            credentials: APICredentials, baseURL: String, retry: RetryPolicy, range: (start: Int64, end: Int64)
        ) {
            self.credentials = credentials
            self.baseURL = baseURL
            self.retry = retry
            self.range = range
        }
    }

    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// Reads the history of the range page by page and looks each notification up in the database.
    /// - Throws: `AppStoreServerAPIError`, `PGError`, `EmbeddedClusterError`.
    package func run(_ inputs: Inputs) async throws -> HistoryGaps {
        let connection = try target.connectMigrated(logger: logger)
        return try await AppStoreServerAPIClient.withClient(
            baseURL: inputs.baseURL, tokens: try TokenIssuer(credentials: inputs.credentials), retry: inputs.retry,
            logger: logger
        ) { client in
            let pager = NotificationHistoryPager(
                client: client,
                request: NotificationHistoryRequest(startDate: inputs.range.start, endDate: inputs.range.end)
            )
            return try await HistoryGaps.find(pager: pager, logger: logger) { notifications in
                try StoredNotifications.areStored(notifications, connection: connection)
            }
        }
    }
}
