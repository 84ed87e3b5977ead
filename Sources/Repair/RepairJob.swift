import AppStoreNotifications
import AppStoreServerAPI
import Foundation
import HistoryFetch
import Logging
import PGClient
import Store

/// A repair as `churn repair` and `churn nightly --repair` run it: under the fetch lock, the episodes the
/// notifications leave uncertain are checked against Apple's Get All Subscription Statuses, and where Apple's status
/// differs, the subscription's notification history is fetched by transaction id into the exports directory.
///
/// Nothing here changes an episode. The history files are export files like `churn fetch`'s; the next load verifies
/// and stores their notifications, and the analysis corrects the episode from them. Each answer is recorded in
/// `subscription_checks` before the next request that depends on it, and each history page after it is durably in its
/// file, so a run stopped at any moment resumes with the first request it did not record.
package struct RepairJob: Sendable {
    package var credentials: APICredentials
    package var baseURL: String
    package var retry: RetryPolicy
    /// `Production` or `Sandbox`.
    package var environment: String
    /// The exports directory the history files go to.
    package var directory: String
    /// The most statuses asked in one run (unfinished checks of an earlier run included).
    package var limit: Int
    /// Status requests in flight at once.
    package var concurrency: Int
    /// Days without a notification after which an open episode is uncertain; also how long a check stands before the
    /// same episode is checked again.
    package var staleDays: Int
    /// Seconds to wait for a fetch to release the lock.
    package var lockTimeout: Double
    /// Verifies Apple's signed items as the loader verifies notifications.
    package var verifier: JWSVerifier
    /// How long a request may take (tests make it long).
    package var requestTimeout: Duration

    package init(
        credentials: APICredentials, baseURL: String, retry: RetryPolicy, environment: String, directory: String,
        limit: Int, concurrency: Int, staleDays: Int, lockTimeout: Double, verifier: JWSVerifier,
        requestTimeout: Duration = .seconds(60)
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.retry = retry
        self.environment = environment
        self.directory = directory
        self.limit = limit
        self.concurrency = concurrency
        self.staleDays = staleDays
        self.lockTimeout = lockTimeout
        self.verifier = verifier
        self.requestTimeout = requestTimeout
    }

    /// What a run did.
    package struct Summary: Sendable, Equatable {
        /// Statuses asked and recorded this run, by verdict.
        package var verdicts: [SubscriptionCheck.Verdict: Int] = [:]
        /// Unfinished checks of an earlier run that this one went on with.
        package var resumed = 0
        /// Histories fetched to the end this run, the history pages and notifications kept, the files completed.
        package var histories = 0
        package var pages = 0
        package var notifications = 0
        package var files: [String] = []
        /// Histories Apple refused this run (a `failed` check each, with Apple's error code).
        package var failedHistories = 0
        /// Transaction histories read this run (episodes older than the notification history), and of those, the
        /// recoveries a verified renewal within the retry window proved.
        package var transactionHistories = 0
        package var recoveriesProven = 0
        /// The time the uncertain episodes were chosen as of (Unix ms): the latest `signedDate` loaded over all
        /// environments, as a report takes it; nil when nothing is loaded.
        package var asOf: Int64?

        package var checked: Int { verdicts.values.reduce(0, +) }

        package init() {}
    }

    /// Checks and repairs, and returns what the run did.
    /// - Parameter now: the current time, Unix milliseconds: the end of the history ranges a check fetches.
    /// - Throws: ``FetchError/lockBusy(waitedSeconds:)``; `AppStoreServerAPIError` when Apple refuses the
    ///   credentials, stays unavailable or asks to wait past the retry bound (the checks recorded stay recorded; an
    ///   error about one subscription is recorded on its check instead); ``FetchError``, `PGError`.
    package func run(connection: PGConnection, logger: Logger, now: Int64) async throws -> Summary {
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.fetch, on: connection)
        guard try connection.advisoryLock(lock, timeout: lockTimeout, awaiting: "fetch or repair", logger: logger)
        else {
            throw FetchError.lockBusy(waitedSeconds: Int(lockTimeout))
        }
        defer { _ = try? connection.advisoryUnlock(lock) }
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw FetchError.writeFailed(path: directory, reason: (error as NSError).localizedDescription)
        }
        let repairer = SubscriptionRepairer(
            job: self, checks: SubscriptionChecks(connection: connection),
            directory: url.resolvingSymlinksInPath().path, logger: logger, now: now
        )
        let tokens = try TokenIssuer(credentials: credentials)
        return try await AppStoreServerAPIClient.withClient(
            baseURL: baseURL, tokens: tokens, retry: retry, requestTimeout: requestTimeout, logger: logger
        ) { client in
            try await repairer.run(client: client)
        }
    }
}
