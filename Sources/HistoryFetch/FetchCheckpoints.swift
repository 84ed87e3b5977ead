import PGClient

/// The `fetch_checkpoints` table: one row per fetched range of the notification history, updated after each page
/// a fetch keeps.
package struct FetchCheckpoints {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    private static let columns = """
        id, environment, bundle_id, (extract(epoch FROM start_date) * 1000)::bigint,
        (extract(epoch FROM end_date) * 1000)::bigint, notification_type, notification_subtype, only_failures,
        directory, status, pagination_token, pages, notifications, malformed_pages, file_part, part_pages,
        part_notifications, part_bytes, part_start_token, last_page_kept
        """

    /// The filters of `scope` as a condition on parameters $1…$5.
    private static let scopeCondition = """
        environment = $1 AND bundle_id = $2 AND notification_type IS NOT DISTINCT FROM $3
        AND notification_subtype IS NOT DISTINCT FROM $4 AND only_failures = $5::boolean
        """

    private static func scopeParameters(_ scope: HistoryScope) -> [String?] {
        [
            scope.environment, scope.bundleID, scope.notificationType, scope.notificationSubtype,
            scope.onlyFailures ? "true" : "false",
        ]
    }

    /// Starts recording a new range.
    /// - Throws: ``PGError``.
    package func begin(scope: HistoryScope, startDate: Int64, endDate: Int64, directory: String) throws
        -> FetchCheckpoint
    {
        let rows = try connection.execute(
            """
            INSERT INTO fetch_checkpoints (environment, bundle_id, notification_type, notification_subtype,
                only_failures, start_date, end_date, directory)
            VALUES ($1, $2, $3, $4, $5::boolean, to_timestamp($6::bigint / 1000.0), to_timestamp($7::bigint / 1000.0), $8)
            RETURNING \(Self.columns)
            """,
            Self.scopeParameters(scope) + [String(startDate), String(endDate), directory]
        ).rows
        guard let row = rows.first, let checkpoint = Self.checkpoint(row) else {
            throw PGError(kind: .unexpectedResult, message: "INSERT INTO fetch_checkpoints … RETURNING gave no row")
        }
        return checkpoint
    }

    /// The ranges of `scope` writing into `directory` that did not finish (`running` or `failed`), oldest first.
    /// - Throws: ``PGError``.
    package func unfinished(scope: HistoryScope, directory: String) throws -> [FetchCheckpoint] {
        try connection.execute(
            """
            SELECT \(Self.columns) FROM fetch_checkpoints
            WHERE \(Self.scopeCondition) AND directory = $6 AND status IN ('running', 'failed')
            ORDER BY id
            """,
            Self.scopeParameters(scope) + [directory]
        ).rows.compactMap(Self.checkpoint)
    }

    /// The end of the latest range of `scope` that succeeded, Unix milliseconds; nil before the first.
    /// - Throws: ``PGError``.
    package func lastSucceededEnd(scope: HistoryScope) throws -> Int64? {
        try connection.execute(
            """
            SELECT (extract(epoch FROM max(end_date)) * 1000)::bigint FROM fetch_checkpoints
            WHERE \(Self.scopeCondition) AND status = 'succeeded'
            """,
            Self.scopeParameters(scope)
        ).scalar.flatMap { Int64($0) }
    }

    /// The row of `id`.
    /// - Throws: ``PGError``.
    package func checkpoint(id: Int64) throws -> FetchCheckpoint? {
        try connection.execute("SELECT \(Self.columns) FROM fetch_checkpoints WHERE id = $1::bigint", [String(id)])
            .rows.first.flatMap(Self.checkpoint)
    }

    /// Records a page that is durably in the current file (or, with no notifications, that needed no line).
    /// - Throws: ``PGError``.
    package func keepPage(_ checkpoint: FetchCheckpoint) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET status = 'running', pagination_token = $2, pages = $3::integer,
                notifications = $4::bigint, part_pages = $5::integer, part_notifications = $6::bigint,
                part_bytes = $7::bigint, last_page_kept = $8::boolean, updated_at = now(), error = NULL
            WHERE id = $1::bigint
            """,
            [
                String(checkpoint.id), checkpoint.paginationToken, String(checkpoint.pages),
                String(checkpoint.notifications), String(checkpoint.partPages), String(checkpoint.partNotifications),
                String(checkpoint.partBytes), checkpoint.hasLastPage ? "true" : "false",
            ]
        )
    }

    /// Records where the pages go from now on: a file part, and the token its first page is requested with. Also what
    /// a lost file part or a range that starts over takes back from the counts.
    /// - Throws: ``PGError``.
    package func startPart(_ checkpoint: FetchCheckpoint) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET pagination_token = $2, pages = $3::integer, notifications = $4::bigint,
                file_part = $5::integer, part_pages = 0, part_notifications = 0, part_bytes = 0,
                part_start_token = $2, last_page_kept = false, updated_at = now()
            WHERE id = $1::bigint
            """,
            [
                String(checkpoint.id), checkpoint.paginationToken, String(checkpoint.pages),
                String(checkpoint.notifications), String(checkpoint.filePart),
            ]
        )
    }

    /// Counts a malformed page that was kept aside.
    /// - Throws: ``PGError``.
    package func countMalformedPage(id: Int64) throws {
        try connection.execute(
            "UPDATE fetch_checkpoints SET malformed_pages = malformed_pages + 1, updated_at = now() WHERE id = $1::bigint",
            [String(id)]
        )
    }

    /// Ends a range: `succeeded`, `failed` (with the error) or `abandoned`.
    /// - Throws: ``PGError``.
    package func finish(id: Int64, status: String, error: String?) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET status = $2, error = $3, updated_at = now(),
                finished_at = CASE WHEN $2 = 'failed' THEN NULL ELSE now() END
            WHERE id = $1::bigint
            """,
            [String(id), status, error]
        )
    }

    private static func checkpoint(_ row: [String?]) -> FetchCheckpoint? {
        guard row.count == 20, let id = row[0].flatMap({ Int64($0) }), let environment = row[1],
            let bundleID = row[2], let startDate = row[3].flatMap({ Int64($0) }),
            let endDate = row[4].flatMap({ Int64($0) }), let directory = row[8], let status = row[9],
            let pages = row[11].flatMap({ Int($0) }), let notifications = row[12].flatMap({ Int64($0) }),
            let malformedPages = row[13].flatMap({ Int($0) }), let filePart = row[14].flatMap({ Int($0) }),
            let partPages = row[15].flatMap({ Int($0) }), let partNotifications = row[16].flatMap({ Int64($0) }),
            let partBytes = row[17].flatMap({ Int64($0) })
        else { return nil }
        return FetchCheckpoint(
            id: id,
            scope: HistoryScope(
                environment: environment, bundleID: bundleID, notificationType: row[5], notificationSubtype: row[6],
                onlyFailures: row[7] == "t"
            ),
            startDate: startDate, endDate: endDate, directory: directory, status: status, paginationToken: row[10],
            hasLastPage: row[19] == "t",
            pages: pages, notifications: notifications, malformedPages: malformedPages, filePart: filePart,
            partPages: partPages, partNotifications: partNotifications, partBytes: partBytes,
            partStartToken: row[18]
        )
    }
}
