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

    /// The filters of `scope` as a condition.
    private static func condition(_ scope: HistoryScope) -> PGQuery {
        """
        environment = \(bind: scope.environment) AND bundle_id = \(bind: scope.bundleID)
        AND notification_type IS NOT DISTINCT FROM \(bind: scope.notificationType)
        AND notification_subtype IS NOT DISTINCT FROM \(bind: scope.notificationSubtype)
        AND only_failures = \(bind: scope.onlyFailures)
        """
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
            VALUES (\(bind: scope.environment), \(bind: scope.bundleID), \(bind: scope.notificationType),
                \(bind: scope.notificationSubtype), \(bind: scope.onlyFailures),
                \(bind: PGInstant(milliseconds: startDate)), \(bind: PGInstant(milliseconds: endDate)),
                \(bind: directory))
            RETURNING \(sql: Self.columns.selection.list)
            """
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
            SELECT \(sql: Self.columns.selection.list) FROM fetch_checkpoints
            WHERE \(query: Self.condition(scope)) AND directory = \(bind: directory) AND status IN ('running', 'failed')
            ORDER BY id
            """
        ).rows.map(Self.columns.checkpoint)
    }

    /// The end of the latest range of `scope` that succeeded, Unix milliseconds; nil before the first.
    /// - Throws: ``PGError``.
    package func lastSucceededEnd(scope: HistoryScope) throws -> Int64? {
        try connection.execute(
            """
            SELECT (extract(epoch FROM max(end_date)) * 1000)::bigint FROM fetch_checkpoints
            WHERE \(query: Self.condition(scope)) AND status = 'succeeded'
            """
        ).scalar.flatMap { Int64($0) }
    }

    /// The row of `id`.
    /// - Throws: ``PGError``.
    package func checkpoint(id: Int64) throws -> FetchCheckpoint? {
        try connection.execute(
            "SELECT \(sql: Self.columns.selection.list) FROM fetch_checkpoints WHERE id = \(bind: id)"
        ).rows.first.map(Self.columns.checkpoint)
    }

    /// Records a page that is durably in the current file (or, with no notifications, that needed no line).
    /// - Throws: ``PGError``.
    package func keepPage(_ checkpoint: FetchCheckpoint) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET status = 'running', pagination_token = \(bind: checkpoint.paginationToken),
                pages = \(bind: checkpoint.pages), notifications = \(bind: checkpoint.notifications),
                part_pages = \(bind: checkpoint.partPages), part_notifications = \(bind: checkpoint.partNotifications),
                part_bytes = \(bind: checkpoint.partBytes), last_page_kept = \(bind: checkpoint.hasLastPage),
                updated_at = now(), error = NULL
            WHERE id = \(bind: checkpoint.id)
            """
        )
    }

    /// Records where the pages go from now on: a file part, and the token its first page is requested with. Also what
    /// a lost file part or a range that starts over takes back from the counts.
    /// - Throws: ``PGError``.
    package func startPart(_ checkpoint: FetchCheckpoint) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET pagination_token = \(bind: checkpoint.paginationToken),
                pages = \(bind: checkpoint.pages), notifications = \(bind: checkpoint.notifications),
                file_part = \(bind: checkpoint.filePart), part_pages = 0, part_notifications = 0, part_bytes = 0,
                part_start_token = \(bind: checkpoint.paginationToken), last_page_kept = false, updated_at = now()
            WHERE id = \(bind: checkpoint.id)
            """
        )
    }

    /// Counts a malformed page that was kept aside.
    /// - Throws: ``PGError``.
    package func countMalformedPage(id: Int64) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET malformed_pages = malformed_pages + 1, updated_at = now()
            WHERE id = \(bind: id)
            """
        )
    }

    /// Ends a range: `succeeded`, `failed` (with the error) or `abandoned`.
    /// - Throws: ``PGError``.
    package func finish(id: Int64, status: String, error: String?) throws {
        try connection.execute(
            """
            UPDATE fetch_checkpoints SET status = \(bind: status), error = \(bind: error), updated_at = now(),
                finished_at = CASE WHEN \(bind: status) = 'failed' THEN NULL ELSE now() END
            WHERE id = \(bind: id)
            """
        )
    }
}
