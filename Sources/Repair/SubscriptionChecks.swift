import Analysis
import AnalysisStore
import AppStoreNotifications
import PGClient
import Store

/// The `subscription_checks` table: one row per episode checked against Apple's subscription status, updated after
/// each answer a repair records.
package struct SubscriptionChecks {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// An episode the notifications leave uncertain, not checked lately.
    package struct Candidate: Sendable, Equatable {
        package var originalTransactionID: String
        package var episodeSequence: Int
        /// Unix milliseconds.
        package var episodeStart: Int64
        package var reason: SubscriptionCheck.Reason
        /// t0 + W days (Unix ms), W of the episode's plan; nil when not representable.
        package var retryWindowEnd: Int64?
    }

    /// The columns a ``SubscriptionCheck`` is read from; times as Unix milliseconds.
    private struct Columns {
        let selection: PGSelection
        let id: PGField
        let environment: PGField
        let bundleID: PGField
        let originalTransactionID: PGField
        let episodeSequence: PGField
        let episodeStart: PGField
        let reason: PGField
        let expected: PGField
        let directory: PGField
        let state: PGField
        let verdict: PGField
        let historyStart: PGField
        let historyEnd: PGField
        let paginationToken: PGField
        let pages: PGField
        let notifications: PGField
        let partBytes: PGField
        let historyKind: PGField
        let retryWindowEnd: PGField

        init() {
            var selection = PGSelection(StoredTables.subscriptionChecks)
            id = selection.add("id")
            environment = selection.add("environment")
            bundleID = selection.add("bundle_id")
            originalTransactionID = selection.add("original_transaction_id")
            episodeSequence = selection.add("episode_sequence")
            episodeStart = selection.add("episode_start")
            reason = selection.add("reason")
            expected = selection.add("expected")
            directory = selection.add("directory")
            state = selection.add("state")
            verdict = selection.add("verdict")
            historyStart = selection.add("history_start")
            historyEnd = selection.add("history_end")
            paginationToken = selection.add("pagination_token")
            pages = selection.add("pages")
            notifications = selection.add("notifications")
            partBytes = selection.add("part_bytes")
            historyKind = selection.add("history_kind")
            retryWindowEnd = selection.add("retry_window_end")
            self.selection = selection
        }

        /// One row of ``selection`` as a check.
        /// - Throws: ``PGError`` naming the column whose value is missing or malformed.
        func check(_ row: [String?]) throws -> SubscriptionCheck {
            return SubscriptionCheck(
                id: try row.decode(Int64.self, id),
                environment: try row.decode(String.self, environment),
                bundleID: try row.decode(String.self, bundleID),
                originalTransactionID: try row.decode(String.self, originalTransactionID),
                episodeSequence: try row.decode(Int.self, episodeSequence),
                episodeStart: try row.decode(Int64.self, episodeStart),
                reason: try row.decode(SubscriptionCheck.Reason.self, reason),
                expected: try row.decode(SubscriptionCheck.Expected.self, expected),
                directory: try row.decode(String.self, directory),
                state: try row.decode(String.self, state),
                verdict: try row.decode(SubscriptionCheck.Verdict?.self, verdict),
                historyStart: try row.decode(Int64?.self, historyStart),
                historyEnd: try row.decode(Int64?.self, historyEnd),
                paginationToken: try row.decode(String?.self, paginationToken),
                pages: try row.decode(Int.self, pages),
                notifications: try row.decode(Int.self, notifications),
                partBytes: try row.decode(Int64.self, partBytes),
                historyKind: try row.decode(SubscriptionCheck.HistoryKind.self, historyKind),
                retryWindowEnd: try row.decode(Int64?.self, retryWindowEnd)
            )
        }
    }

    private static let columns = Columns()

    /// The checks of this app and environment writing into `directory` that did not finish, oldest first: those whose
    /// status is not recorded yet, and those whose history is being fetched (not those `done` or `failed`).
    /// - Throws: ``PGError``.
    package func unfinished(environment: String, bundleID: String, directory: String) throws -> [SubscriptionCheck] {
        try connection.execute(
            """
            SELECT \(sql: Self.columns.selection.list) FROM subscription_checks
            WHERE environment = \(bind: environment) AND bundle_id = \(bind: bundleID)
              AND directory = \(bind: directory) AND state IN ('pending', 'fetching')
            ORDER BY id
            """
        ).rows.map(Self.columns.check)
    }

    /// Up to `limit` episodes of this app and environment that the notifications leave uncertain (``UncertainEpisodes``,
    /// the episode rules in Swift), as of the time a report takes: the latest `signedDate` loaded, over all
    /// environments. An episode checked in the last `staleDays` days, or whose check is unfinished, is left out.
    /// Oldest episodes first.
    ///
    /// The stored episodes are read as ``EpisodeAnalyzer`` last built them (``EpisodeQuery``); SQL only reads, the
    /// choice is ``UncertainEpisodes/reason(of:lastNews:)``'s.
    /// - Returns: the as-of time (nil when nothing is loaded) and the candidates.
    /// - Throws: ``PGError``.
    package func candidates(
        environment: String, bundleID: String, staleDays: Int, limit: Int
    ) throws -> (asOf: Int64?, candidates: [Candidate]) {
        let query = EpisodeQuery(environment: environment, filter: EpisodeFilter(bundleIds: [bundleID, ""]))
        guard let scope = try query.scope(asOf: nil, connection: connection) else { return (nil, []) }
        guard limit > 0 else { return (scope.asOf, []) }
        let rules = UncertainEpisodes(asOf: scope.asOf, staleDays: staleDays)
        let news = try lastNews(environment: environment)
        let recent = try recentlyChecked(environment: environment, staleDays: staleDays)
        var candidates: [Candidate] = []
        // As of the latest signedDate loaded the stored episodes serve, so the notifications are never read again.
        try query.forEachEpisode(in: scope, connection: connection, reader: connection) { episode in
            guard let reason = rules.reason(of: episode, lastNews: news[episode.subscription]),
                !recent.contains(EpisodeKey(subscription: episode.subscription, sequence: episode.sequence))
            else { return }
            candidates.append(
                Candidate(
                    originalTransactionID: episode.subscription, episodeSequence: episode.sequence,
                    episodeStart: episode.start, reason: reason, retryWindowEnd: episode.retryWindowEnd))
        }
        candidates.sort {
            ($0.episodeStart, $0.originalTransactionID, $0.episodeSequence)
                < ($1.episodeStart, $1.originalTransactionID, $1.episodeSequence)
        }
        return (scope.asOf, Array(candidates.prefix(limit)))
    }

    /// One episode of a subscription.
    private struct EpisodeKey: Hashable {
        var subscription: String
        var sequence: Int
    }

    /// The latest `signedDate` (Unix ms) of each subscription of `environment` with an episode stored open.
    private func lastNews(environment: String) throws -> [String: Int64] {
        let result = try connection.execute(
            """
            SELECT original_transaction_id, (date_part('epoch', max(signed_date)) * 1000)::int8 AS last_news
            FROM notifications
            WHERE environment = \(bind: environment) AND original_transaction_id IN (
                SELECT original_transaction_id FROM billing_episodes
                WHERE environment = \(bind: environment) AND outcome = 'open')
            GROUP BY original_transaction_id
            """
        )
        let (subscription, lastNews) = (try result.field("original_transaction_id"), try result.field("last_news"))
        var news: [String: Int64] = [:]
        for row in result.rows {
            news[try row.decode(String.self, subscription)] = try row.decode(Int64.self, lastNews)
        }
        return news
    }

    /// The episodes of `environment` whose check is unfinished or was begun in the last `staleDays` days.
    private func recentlyChecked(environment: String, staleDays: Int) throws -> Set<EpisodeKey> {
        let result = try connection.execute(
            """
            SELECT DISTINCT original_transaction_id, episode_sequence FROM subscription_checks
            WHERE environment = \(bind: environment)
              AND (state IN ('pending', 'fetching') OR created_at > now() - \(bind: staleDays) * interval '1 day')
            """
        )
        let (subscription, sequence) = (
            try result.field("original_transaction_id"), try result.field("episode_sequence")
        )
        return Set(
            try result.rows.map {
                EpisodeKey(
                    subscription: try $0.decode(String.self, subscription), sequence: try $0.decode(Int.self, sequence))
            })
    }

    /// Records the checks a run is about to make, one per candidate, `pending`.
    /// - Throws: ``PGError``.
    package func begin(
        _ candidates: [Candidate], environment: String, bundleID: String, directory: String
    ) throws -> [SubscriptionCheck] {
        try candidates.map { candidate in
            let rows = try connection.execute(
                """
                INSERT INTO subscription_checks (environment, bundle_id, original_transaction_id, episode_sequence,
                    episode_start, reason, expected, directory, retry_window_end)
                VALUES (\(bind: environment), \(bind: bundleID), \(bind: candidate.originalTransactionID),
                    \(bind: candidate.episodeSequence), \(bind: PGInstant(milliseconds: candidate.episodeStart)),
                    \(bind: candidate.reason.rawValue), \(bind: candidate.reason.expected.rawValue), \(bind: directory),
                    \(bind: PGInstant.optional(milliseconds: candidate.retryWindowEnd)))
                RETURNING \(sql: Self.columns.selection.list)
                """
            ).rows
            guard let row = rows.first else {
                throw PGError(
                    kind: .unexpectedResult, message: "INSERT INTO subscription_checks … RETURNING gave no row")
            }
            return try Self.columns.check(row)
        }
    }

    /// Records Apple's answer: the verdict, what Apple said, and for a status that differs, the history range to
    /// fetch (the check is then `fetching`; otherwise `done`) and where it comes from. `appleErrorCode` is Apple's code
    /// of a refused request.
    /// - Throws: ``PGError``.
    package func recordStatus(
        id: Int64, verdict: SubscriptionCheck.Verdict, apple: AppleStatus?, error: String?,
        appleErrorCode: Int64? = nil, history: (start: Int64, end: Int64)?,
        historyKind: SubscriptionCheck.HistoryKind = .notifications
    ) throws {
        let status = apple.map { Int($0.status.rawValue) }
        try connection.execute(
            """
            UPDATE subscription_checks SET verdict = \(bind: verdict.rawValue), apple_status = \(bind: status),
                apple_expires_date = \(bind: PGInstant.optional(milliseconds: apple?.expiresDate)),
                apple_grace_period_expires_date =
                    \(bind: PGInstant.optional(milliseconds: apple?.gracePeriodExpiresDate)),
                apple_in_billing_retry = \(bind: apple?.isInBillingRetryPeriod), error = \(bind: error),
                checked_at = now(),
                history_start = \(bind: PGInstant.optional(milliseconds: history?.start)),
                history_end = \(bind: PGInstant.optional(milliseconds: history?.end)),
                state = \(sql: history == nil ? "'done'" : "'fetching'"),
                finished_at = \(sql: history == nil ? "now()" : "NULL"), apple_error_code = \(bind: appleErrorCode),
                history_kind = \(bind: historyKind.rawValue)
            WHERE id = \(bind: id)
            """
        )
    }

    /// Records a history page that is durably in the check's file (or, with no notifications, that needed no line);
    /// also what a history that starts over takes back.
    /// - Throws: ``PGError``.
    package func keepPage(_ check: SubscriptionCheck) throws {
        try connection.execute(
            """
            UPDATE subscription_checks SET pagination_token = \(bind: check.paginationToken),
                pages = \(bind: check.pages), notifications = \(bind: check.notifications),
                part_bytes = \(bind: check.partBytes)
            WHERE id = \(bind: check.id)
            """
        )
    }

    /// Ends a check whose history is fetched: its file (nil when the history held nothing).
    /// - Throws: ``PGError``.
    package func finish(id: Int64, historyFile: String?) throws {
        try connection.execute(
            """
            UPDATE subscription_checks SET state = 'done', history_file = \(bind: historyFile), pagination_token = NULL,
                finished_at = now()
            WHERE id = \(bind: id)
            """
        )
    }
}

extension SubscriptionChecks {
    /// Ends a check whose history Apple refused (or kept answering a retryable error for): `failed`, with Apple's
    /// error code and the message, and the file of the pages fetched before, if any. The repair goes on with the
    /// next check; this one is checked again after `--stale-days`, like a done one.
    /// - Throws: ``PGError``.
    package func fail(id: Int64, appleErrorCode: Int64?, error: String, historyFile: String?) throws {
        try connection.execute(
            """
            UPDATE subscription_checks SET state = 'failed', apple_error_code = \(bind: appleErrorCode),
                error = \(bind: error), history_file = \(bind: historyFile), pagination_token = NULL,
                finished_at = now()
            WHERE id = \(bind: id)
            """
        )
    }
}

extension SubscriptionChecks {
    /// Ends a check whose signed transactions were read: how many, and the renewal that proves the recovery, with
    /// Apple's signed transaction as received (nil when none was found).
    /// - Throws: ``PGError``.
    package func finishTransactions(id: Int64, transactions: Int, proof: RecoveryProof?) throws {
        try connection.execute(
            """
            UPDATE subscription_checks SET state = 'done', transactions = \(bind: transactions),
                proof_transaction_id = \(bind: proof?.transactionID),
                proof_purchase_date = \(bind: PGInstant.optional(milliseconds: proof?.purchaseDate)),
                proof_signed_transaction = \(bind: proof?.signedTransaction), proof_price = \(bind: proof?.price),
                proof_currency = \(bind: proof?.currency), proof_analyzed = false, finished_at = now()
            WHERE id = \(bind: id)
            """
        )
    }
}

extension SubscriptionCheck.Reason {
    /// What the notifications made of an episode uncertain for this reason.
    package var expected: SubscriptionCheck.Expected {
        switch self {
        case .inferredExpiry: .expired
        case .openWithoutNews, .graceEndUnknown: .billingIssue
        }
    }
}
