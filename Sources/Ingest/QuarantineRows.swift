import PGClient
import Store

/// The `quarantine` table as `churn quarantine` reads and clears it: each refused input with its file, line, reason
/// and raw text, and whether a later load resolved it (stored its notification, or accepted it once an option was
/// fixed).
///
/// A row not resolved counts in every report's `rejected_<reason>` (and, for a filter's refusals,
/// `outside_environment` or `outside_bundle`), and a file holding one whose reason can be mended is loaded again by
/// the next nightly. Clearing deletes the rows, raw text and all: the inputs are then as if never read.
package struct QuarantineRows {
    /// Which rows: all of them when every field is nil and `resolved` is false.
    package struct Selection: Sendable, Equatable {
        /// Only these row ids.
        package var ids: [Int64]
        /// Only this reason (`not_json`, `wrong_bundle_id`, …).
        package var reason: String?
        /// Only rows of files whose path is one of these exactly, as the load named it (empty: any file).
        package var files: [String]
        /// Also the rows a later load resolved (which count nowhere).
        package var resolved: Bool

        package init(ids: [Int64] = [], reason: String? = nil, files: [String] = [], resolved: Bool = false) {
            self.ids = ids
            self.reason = reason
            self.files = files
            self.resolved = resolved
        }

        /// Whether the selection names anything beyond "every unresolved row".
        package var isNarrowed: Bool { !ids.isEmpty || reason != nil || !files.isEmpty }

        /// The WHERE clause and its parameters.
        fileprivate var condition: (sql: String, parameters: [any PGParameter]) {
            var clauses: [String] = []
            var parameters: [any PGParameter] = []
            if !resolved { clauses.append("resolved_by_run IS NULL") }
            if !ids.isEmpty {
                parameters.append(PGArray.bigints(ids))
                clauses.append("id = ANY($\(parameters.count))")
            }
            if let reason {
                parameters.append(reason)
                clauses.append("reason = $\(parameters.count)")
            }
            if !files.isEmpty {
                parameters.append(PGArray.texts(files))
                clauses.append("file = ANY($\(parameters.count))")
            }
            return (clauses.isEmpty ? "true" : clauses.joined(separator: " AND "), parameters)
        }
    }

    /// One quarantined input.
    package struct Row: Sendable, Equatable {
        package var id: Int64
        package var loadRunID: Int64
        package var file: String
        /// The line of the input (1-based); nil when the file has no lines (a single JSON document).
        package var line: Int64?
        package var reason: String
        package var detail: String
        /// When the load refused it (ISO 8601 UTC).
        package var quarantinedAt: String
        /// The load run that resolved it; nil while it counts.
        package var resolvedByRun: Int64?
    }

    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// The columns a ``Row`` is read from.
    private struct Columns {
        let selection: PGSelection
        let id: PGField
        let loadRunID: PGField
        let file: PGField
        let line: PGField
        let reason: PGField
        let detail: PGField
        let quarantinedAt: PGField
        let resolvedByRun: PGField

        init() {
            var selection = PGSelection(StoredTables.quarantine)
            id = selection.add("id")
            loadRunID = selection.add("load_run_id")
            file = selection.add("file")
            line = selection.add("line")
            reason = selection.add("reason")
            detail = selection.add("detail")
            quarantinedAt = selection.add(
                "quarantined_at",
                expression: #"to_char(quarantined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"#)
            resolvedByRun = selection.add("resolved_by_run")
            self.selection = selection
        }
    }

    private static let columns = Columns()

    /// The selected rows, oldest first.
    package func list(_ selection: Selection) throws -> [Row] {
        let condition = selection.condition
        let columns = Self.columns
        return try connection.execute(
            "SELECT \(columns.selection.list) FROM quarantine WHERE \(condition.sql) ORDER BY id",
            condition.parameters
        ).rows.map { row in
            Row(
                id: try row.decode(Int64.self, columns.id),
                loadRunID: try row.decode(Int64.self, columns.loadRunID),
                file: try row.decode(String.self, columns.file),
                line: try row.decode(Int64?.self, columns.line),
                reason: try row.decode(String.self, columns.reason),
                detail: try row.decode(String.self, columns.detail),
                quarantinedAt: try row.decode(String.self, columns.quarantinedAt),
                resolvedByRun: try row.decode(Int64?.self, columns.resolvedByRun)
            )
        }
    }

    /// Deletes the selected rows.
    /// - Returns: how many were deleted.
    package func clear(_ selection: Selection) throws -> Int {
        let condition = selection.condition
        return try connection.execute("DELETE FROM quarantine WHERE \(condition.sql)", condition.parameters)
            .affectedRows
    }

    /// A column whose values ``stored(_:)`` counts.
    package enum Column: String, Sendable {
        case file
        case reason
    }

    /// Each value `column` has in the table (resolved rows included), with its number of rows, in value order.
    package func stored(_ column: Column) throws -> [(value: String, rows: Int)] {
        let result = try connection.execute(
            "SELECT \(column.rawValue) AS value, count(*) AS rows FROM quarantine GROUP BY 1 ORDER BY 1")
        let (value, rows) = (try result.field("value"), try result.field("rows"))
        return try result.rows.map { (try $0.decode(String.self, value), try $0.decode(Int.self, rows)) }
    }

    /// Those of `ids` that some row has.
    package func storedIDs(among ids: [Int64]) throws -> Set<Int64> {
        let result = try connection.execute(
            "SELECT id FROM quarantine WHERE id = ANY($1)", [PGArray.bigints(ids)])
        let id = try result.field("id")
        return Set(try result.rows.map { try $0.decode(Int64.self, id) })
    }
}
