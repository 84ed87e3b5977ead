import AppStoreServerAPI
import Logging
import PGClient
import Store

/// A history fetch as `churn fetch` and `churn nightly --fetch` run it: under the fetch lock, into one exports
/// directory, with one API client.
package struct FetchJob: Sendable {
    package var credentials: APICredentials
    package var baseURL: String
    package var retry: RetryPolicy
    package var scope: HistoryScope
    /// The range asked for, `[start, end)` in Unix milliseconds; nil for "since the last successful fetch".
    package var range: (start: Int64, end: Int64)?
    package var directory: String
    package var pagesPerFile: Int
    /// Seconds to wait for another fetch to release the lock.
    package var lockTimeout: Double

    package init(
        credentials: APICredentials, baseURL: String, retry: RetryPolicy, scope: HistoryScope,
        range: (start: Int64, end: Int64)?, directory: String, pagesPerFile: Int, lockTimeout: Double
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.retry = retry
        self.scope = scope
        self.range = range
        self.directory = directory
        self.pagesPerFile = pagesPerFile
        self.lockTimeout = lockTimeout
    }

    /// Fetches, and returns what each range got.
    /// - Throws: ``FetchError/lockBusy(waitedSeconds:)`` when another fetch holds the lock past `lockTimeout`;
    ///   otherwise ``FetchError``, `AppStoreServerAPIError` or `PGError`.
    package func run(connection: PGConnection, logger: Logger, now: Int64) async throws -> [FetchedRange] {
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.fetch, on: connection)
        guard try connection.advisoryLock(lock, timeout: lockTimeout, awaiting: "fetch or repair", logger: logger)
        else {
            throw FetchError.lockBusy(waitedSeconds: Int(lockTimeout))
        }
        defer { _ = try? connection.advisoryUnlock(lock) }
        let fetcher = try HistoryFetcher(
            connection: connection, directory: directory, pagesPerFile: pagesPerFile, logger: logger
        )
        let tokens = try TokenIssuer(credentials: credentials)
        return try await AppStoreServerAPIClient.withClient(
            baseURL: baseURL, tokens: tokens, retry: retry, logger: logger
        ) { client in
            if let range {
                return try await fetcher.fetch(
                    scope: scope, startDate: range.start, endDate: range.end, client: client)
            }
            return try await fetcher.fetchSinceLastSuccess(scope: scope, client: client, now: now)
        }
    }
}
