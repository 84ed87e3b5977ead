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
            self.selection = selection
        }

        /// One row of ``selection`` as a check.
        /// - Throws: ``PGError`` naming the column whose value is missing or malformed.
        func check(_ row: [String?]) throws -> SubscriptionCheck {
            let reasonText = try row.decode(String.self, reason)
            let expectedText = try row.decode(String.self, expected)
            let verdictText = try row.decode(String?.self, verdict)
            guard let reason = SubscriptionCheck.Reason(rawValue: reasonText),
                let expected = SubscriptionCheck.Expected(rawValue: expectedText)
            else {
                throw PGError(
                    kind: .unexpectedResult,
                    message: "subscription_checks: unknown reason '\(reasonText)' or expected '\(expectedText)'")
            }
            return SubscriptionCheck(
                id: try row.decode(Int64.self, id),
                environment: try row.decode(String.self, environment),
                bundleID: try row.decode(String.self, bundleID),
                originalTransactionID: try row.decode(String.self, originalTransactionID),
                episodeSequence: try row.decode(Int.self, episodeSequence),
                episodeStart: try row.decode(Int64.self, episodeStart),
                reason: reason,
                expected: expected,
                directory: try row.decode(String.self, directory),
                state: try row.decode(String.self, state),
                verdict: verdictText.flatMap(SubscriptionCheck.Verdict.init(rawValue:)),
                historyStart: try row.decode(Int64?.self, historyStart),
                historyEnd: try row.decode(Int64?.self, historyEnd),
                paginationToken: try row.decode(String?.self, paginationToken),
                pages: try row.decode(Int.self, pages),
                notifications: try row.decode(Int.self, notifications),
                partBytes: try row.decode(Int64.self, partBytes)
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
            SELECT \(Self.columns.selection.list) FROM subscription_checks
            WHERE environment = $1 AND bundle_id = $2 AND directory = $3 AND state IN ('pending', 'fetching')
            ORDER BY id
            """,
            [environment, bundleID, directory]
        ).rows.map(Self.columns.check)
    }

    /// Up to `limit` episodes of this app and environment that the notifications leave uncertain, as of the latest
    /// notification stored: ended by inference (`inferred_expiry`, the stored flag or an open episode past its retry
    /// window), open with no notification of the subscription for `staleDays` days (`open_without_news`), or open in
    /// a grace period without a date (`grace_end_unknown`). An episode checked in the last `staleDays` days, or whose
    /// check is unfinished, is left out. Oldest episodes first.
    /// - Throws: ``PGError``.
    package func candidates(environment: String, bundleID: String, staleDays: Int, limit: Int) throws -> [Candidate] {
        guard limit > 0 else { return [] }
        let result = try connection.execute(
            """
            WITH as_of AS (
                SELECT max(signed_date) AS t FROM notifications WHERE environment = $1
            ), news AS (
                SELECT original_transaction_id, max(signed_date) AS last_news FROM notifications
                WHERE environment = $1 GROUP BY 1
            ), uncertain AS (
                SELECT e.original_transaction_id, e.sequence, e.start_at,
                       CASE
                           WHEN (e.outcome = 'expired' AND e.end_inferred)
                                OR (e.outcome = 'open' AND e.window_end <= a.t) THEN 'inferred_expiry'
                           WHEN e.outcome = 'open' AND n.last_news <= a.t - $3::integer * interval '1 day'
                               THEN 'open_without_news'
                           WHEN e.outcome = 'open' AND e.has_grace AND (e.grace_end IS NULL OR e.grace_end_inferred)
                               THEN 'grace_end_unknown'
                       END AS reason
                FROM billing_episodes e CROSS JOIN as_of a
                LEFT JOIN news n ON n.original_transaction_id = e.original_transaction_id
                WHERE e.environment = $1 AND (e.bundle_id = $2 OR e.bundle_id IS NULL)
            )
            SELECT u.original_transaction_id, u.sequence::text,
                   (extract(epoch FROM u.start_at) * 1000)::bigint::text, u.reason
            FROM uncertain u
            WHERE u.reason IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM subscription_checks c
                WHERE c.environment = $1 AND c.original_transaction_id = u.original_transaction_id
                  AND c.episode_sequence = u.sequence
                  AND (c.state IN ('pending', 'fetching') OR c.created_at > now() - $3::integer * interval '1 day')
            )
            ORDER BY u.start_at, u.original_transaction_id, u.sequence
            LIMIT $4::integer
            """,
            [environment, bundleID, staleDays, limit]
        )
        return try result.rows.map { row in
            let reasonText = row.count > 3 ? row[3] ?? "" : ""
            guard row.count == 4, let id = row[0], let sequence = row[1].flatMap({ Int($0) }),
                let start = row[2].flatMap({ Int64($0) }), let reason = SubscriptionCheck.Reason(rawValue: reasonText)
            else {
                throw PGError(kind: .unexpectedResult, message: "an uncertain episode's row is malformed: \(row)")
            }
            return Candidate(originalTransactionID: id, episodeSequence: sequence, episodeStart: start, reason: reason)
        }
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
                    episode_start, reason, expected, directory)
                VALUES ($1, $2, $3, $4::integer, to_timestamp($5::bigint / 1000.0), $6, $7, $8)
                RETURNING \(Self.columns.selection.list)
                """,
                [
                    environment, bundleID, candidate.originalTransactionID, candidate.episodeSequence,
                    candidate.episodeStart, candidate.reason.rawValue, candidate.reason.expected.rawValue, directory,
                ]
            ).rows
            guard let row = rows.first else {
                throw PGError(
                    kind: .unexpectedResult, message: "INSERT INTO subscription_checks … RETURNING gave no row")
            }
            return try Self.columns.check(row)
        }
    }

    /// Records Apple's answer: the verdict, what Apple said, and for a status that differs, the history range to
    /// fetch (the check is then `fetching`; otherwise `done`). `appleErrorCode` is Apple's code of a refused request.
    /// - Throws: ``PGError``.
    package func recordStatus(
        id: Int64, verdict: SubscriptionCheck.Verdict, apple: AppleStatus?, error: String?,
        appleErrorCode: Int64? = nil, history: (start: Int64, end: Int64)?
    ) throws {
        let status = apple.map { Int($0.status.rawValue) }
        try connection.execute(
            """
            UPDATE subscription_checks SET verdict = $2, apple_status = $3::smallint,
                apple_expires_date = to_timestamp($4::bigint / 1000.0),
                apple_grace_period_expires_date = to_timestamp($5::bigint / 1000.0),
                apple_in_billing_retry = $6::boolean, error = $7, checked_at = now(),
                history_start = to_timestamp($8::bigint / 1000.0), history_end = to_timestamp($9::bigint / 1000.0),
                state = CASE WHEN $8::bigint IS NULL THEN 'done' ELSE 'fetching' END,
                finished_at = CASE WHEN $8::bigint IS NULL THEN now() END, apple_error_code = $10::bigint
            WHERE id = $1::bigint
            """,
            [
                id, verdict.rawValue, status, apple?.expiresDate, apple?.gracePeriodExpiresDate,
                apple?.isInBillingRetryPeriod, error, history?.start, history?.end, appleErrorCode,
            ]
        )
    }

    /// Records a history page that is durably in the check's file (or, with no notifications, that needed no line);
    /// also what a history that starts over takes back.
    /// - Throws: ``PGError``.
    package func keepPage(_ check: SubscriptionCheck) throws {
        try connection.execute(
            """
            UPDATE subscription_checks SET pagination_token = $2, pages = $3::integer, notifications = $4::integer,
                part_bytes = $5::bigint
            WHERE id = $1::bigint
            """,
            [check.id, check.paginationToken, check.pages, check.notifications, check.partBytes]
        )
    }

    /// Ends a check whose history is fetched: its file (nil when the history held nothing).
    /// - Throws: ``PGError``.
    package func finish(id: Int64, historyFile: String?) throws {
        try connection.execute(
            """
            UPDATE subscription_checks SET state = 'done', history_file = $2, pagination_token = NULL,
                finished_at = now()
            WHERE id = $1::bigint
            """,
            [id, historyFile]
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
            UPDATE subscription_checks SET state = 'failed', apple_error_code = $2::bigint, error = $3,
                history_file = $4, pagination_token = NULL, finished_at = now()
            WHERE id = $1::bigint
            """,
            [id, appleErrorCode, error, historyFile]
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
