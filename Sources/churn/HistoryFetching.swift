import AppStoreServerAPI
import Foundation
import Ingest
import Logging
import PGClient
import Store

/// A history fetch as `churn fetch` and `churn nightly --fetch` run it: under the fetch lock, into one exports
/// directory, with one API client.
struct HistoryFetching {
    var credentials: APICredentials
    var baseURL: String
    var retry: RetryPolicy
    var scope: HistoryScope
    /// `--from`/`--to`; nil for "since the last successful fetch".
    var range: (start: Int64, end: Int64)?
    var directory: String
    var pagesPerFile: Int
    var lockTimeout: Double

    /// Fetches, and returns what each range got.
    /// - Throws: ``ExitStatus/lockBusy`` when another fetch holds the lock past `lockTimeout`; otherwise
    ///   `AppStoreServerAPIError`, `IngestError` or `PGError`.
    func run(connection: PGConnection, logger: Logger, now: Int64) async throws -> [FetchedRange] {
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.fetch, on: connection)
        guard try connection.advisoryLock(lock, timeout: lockTimeout) else {
            Console.warn("another fetch holds the lock (waited \(Int(lockTimeout)) s); try again later")
            throw ExitStatus.lockBusy.exitCode
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
                return [
                    try await fetcher.fetch(scope: scope, startDate: range.start, endDate: range.end, client: client)
                ]
            }
            return try await fetcher.fetchSinceLastSuccess(scope: scope, client: client, now: now)
        }
    }

    /// One line per range, its files indented below, and the malformed pages kept.
    static func render(_ ranges: [FetchedRange]) -> String {
        var lines: [String] = []
        for range in ranges {
            var line =
                "history \(HistoryRangeOptions.text(range.startDate)) to \(HistoryRangeOptions.text(range.endDate)): "
                + "\(range.pages) page(s), \(range.notifications) notification(s), \(range.files.count) file(s)"
            if range.resumedAfterPages > 0 { line += " (resumed after page \(range.resumedAfterPages))" }
            if range.restarted { line += " (started over from the first page)" }
            lines.append(line)
            lines += range.files.map { "  \($0)" }
            if !range.malformedPages.isEmpty {
                lines.append(
                    "  \(range.malformedPages.count) malformed page(s) kept in quarantine and requested again:")
                lines += range.malformedPages.map { "    \($0)" }
            }
        }
        if ranges.isEmpty { lines.append("nothing to fetch: the history is fetched up to now") }
        return lines.joined(separator: "\n")
    }
}
