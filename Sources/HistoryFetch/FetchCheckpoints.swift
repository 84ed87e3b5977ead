import PGClient
import Store

/// The `fetch_checkpoints` table: one row per fetched range of the notification history, updated after each page
/// a fetch keeps.
package struct FetchCheckpoints {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// The columns a ``FetchCheckpoint`` is read from; times as Unix milliseconds.
    private struct Columns {
        let selection: PGSelection
        let id: PGField
        let environment: PGField
        let bundleID: PGField
        let startDate: PGField
        let endDate: PGField
        let notificationType: PGField
        let notificationSubtype: PGField
        let onlyFailures: PGField
        let directory: PGField
        let status: PGField
        let paginationToken: PGField
        let pages: PGField
        let notifications: PGField
        let malformedPages: PGField
        let filePart: PGField
        let partPages: PGField
        let partNotifications: PGField
        let partBytes: PGField
        let partStartToken: PGField
        let lastPageKept: PGField

        init() {
            var selection = PGSelection(StoredTables.fetchCheckpoints)
            id = selection.add("id")
            environment = selection.add("environment")
            bundleID = selection.add("bundle_id")
            startDate = selection.add("start_date")
            endDate = selection.add("end_date")
            notificationType = selection.add("notification_type")
            notificationSubtype = selection.add("notification_subtype")
            onlyFailures = selection.add("only_failures")
            directory = selection.add("directory")
            status = selection.add("status")
            paginationToken = selection.add("pagination_token")
            pages = selection.add("pages")
            notifications = selection.add("notifications")
            malformedPages = selection.add("malformed_pages")
            filePart = selection.add("file_part")
            partPages = selection.add("part_pages")
            partNotifications = selection.add("part_notifications")
            partBytes = selection.add("part_bytes")
            partStartToken = selection.add("part_start_token")
            lastPageKept = selection.add("last_page_kept")
            self.selection = selection
        }

        /// One row of ``selection`` as a checkpoint.
        /// - Throws: ``PGError`` naming the column whose value is missing or malformed.
        func checkpoint(_ row: [String?]) throws -> FetchCheckpoint {
            FetchCheckpoint(
                id: try row.decode(Int64.self, id),
                scope: HistoryScope(
                    environment: try row.decode(String.self, environment),
                    bundleID: try row.decode(String.self, bundleID),
                    notificationType: try row.decode(String?.self, notificationType),
                    notificationSubtype: try row.decode(String?.self, notificationSubtype),
                    onlyFailures: try row.decode(Bool.self, onlyFailures)
                ),
                startDate: try row.decode(Int64.self, startDate),
                endDate: try row.decode(Int64.self, endDate),
                directory: try row.decode(String.self, directory),
                status: try row.decode(String.self, status),
                paginationToken: try row.decode(String?.self, paginationToken),
                hasLastPage: try row.decode(Bool.self, lastPageKept),
                pages: try row.decode(Int.self, pages),
                notifications: try row.decode(Int64.self, notifications),
                malformedPages: try row.decode(Int.self, malformedPages),
                filePart: try row.decode(Int.self, filePart),
                partPages: try row.decode(Int.self, partPages),
                partNotifications: try row.decode(Int64.self, partNotifications),
                partBytes: try row.decode(Int64.self, partBytes),
                partStartToken: try row.decode(String?.self, partStartToken)
            )
        }
    }

    private static let columns = Columns()

    /// The filters of `scope` as a condition on parameters $1…$5.
    private static let scopeCondition = """
        environment = $1 AND bundle_id = $2 AND notification_type IS NOT DISTINCT FROM $3
        AND notification_subtype IS NOT DISTINCT FROM $4 AND only_failures = $5::boolean
        """

    private static func scopeParameters(_ scope: HistoryScope) -> [any PGParameter] {
        [scope.environment, scope.bundleID, scope.notificationType, scope.notificationSubtype, scope.onlyFailures]
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
            RETURNING \(Self.columns.selection.list)
            """,
            Self.scopeParameters(scope) + [startDate, endDate, directory]
        ).rows
        guard let row = rows.first else {
            throw PGError(kind: .unexpectedResult, message: "INSERT INTO fetch_checkpoints … RETURNING gave no row")
        }
        return try Self.columns.checkpoint(row)
    }

    /// The ranges of `scope` writing into `directory` that did not finish (`running` or `failed`), oldest first.
    /// - Throws: ``PGError``.
    package func unfinished(scope: HistoryScope, directory: String) throws -> [FetchCheckpoint] {
        try connection.execute(
            """
            SELECT \(Self.columns.selection.list) FROM fetch_checkpoints
            WHERE \(Self.scopeCondition) AND directory = $6 AND status IN ('running', 'failed')
            ORDER BY id
            """,
            Self.scopeParameters(scope) + [directory]
        ).rows.map(Self.columns.checkpoint)
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
        try connection.execute(
            "SELECT \(Self.columns.selection.list) FROM fetch_checkpoints WHERE id = $1::bigint", [id]
        ).rows.first.map(Self.columns.checkpoint)
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
                checkpoint.id, checkpoint.paginationToken, checkpoint.pages, checkpoint.notifications,
                checkpoint.partPages, checkpoint.partNotifications, checkpoint.partBytes, checkpoint.hasLastPage,
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
                checkpoint.id, checkpoint.paginationToken, checkpoint.pages, checkpoint.notifications,
                checkpoint.filePart,
            ]
        )
    }

    /// Counts a malformed page that was kept aside.
    /// - Throws: ``PGError``.
    package func countMalformedPage(id: Int64) throws {
        try connection.execute(
            "UPDATE fetch_checkpoints SET malformed_pages = malformed_pages + 1, updated_at = now() WHERE id = $1::bigint",
            [id]
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
            [id, status, error]
        )
    }
}
