import PGClient

/// The export files loads stored, one `source_files` row each, by the SHA-256 of their content.
///
/// A file's row gets its SHA-256 in the transaction that completes the file, after every batch of its notifications
/// committed, so a row with a SHA-256 means the whole file was stored. A row whose `sha256` is empty is a file still
/// being loaded, or one whose load died or failed (the batches it committed stay).
package struct SourceFiles {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// Whether a load stored a file with this content whole.
    /// - Parameter sha256: the content's SHA-256, lowercase hex, as ``ExportFiles/sha256(ofFile:)`` gives it.
    /// - Throws: ``PGError``.
    package func hasLoaded(sha256: String) throws -> Bool {
        try firstStored(sha256: sha256) != nil
    }

    /// Whether a load with the options `acceptance` describes (``LoadOptions/acceptance``) stored this content
    /// whole: its refusals for a reason an option decides (``Rejection/Reason/mendable``) would stand again.
    package func hasLoaded(sha256: String, acceptance: String) throws -> Bool {
        try connection.execute(
            """
            SELECT EXISTS (
                SELECT 1 FROM source_files f JOIN load_runs r ON r.id = f.load_run_id
                WHERE f.sha256 = $1 AND r.acceptance = $2
            )
            """,
            [sha256, acceptance]
        ).scalar == "t"
    }

    /// What loads of a file's content refused for a reason an option decides (``Rejection/Reason/mendable``).
    package struct MendableRefusals {
        /// The inputs that still stand refused, by reason, in reason order: what a load with other options might
        /// bring in.
        package var standing: [(reason: String, inputs: Int)]
        /// Whether any input was refused so, resolved since or not: such a file is loaded again under options no
        /// load of it ran with, so that its inputs count as they would have (an input another file stored meanwhile
        /// is a further copy of its notification).
        package var exist: Bool
    }

    /// The inputs of a file's content refused for a reason an option decides, standing or resolved.
    package func mendableRefusals(sha256: String) throws -> MendableRefusals {
        let result = try connection.execute(
            """
            SELECT q.reason, count(DISTINCT (q.line, q.item)) FILTER (WHERE q.resolved_by_run IS NULL) AS standing
            FROM quarantine q JOIN source_files f ON f.id = q.source_file_id
            WHERE f.sha256 = $1 AND q.reason = ANY($2)
            GROUP BY q.reason ORDER BY q.reason
            """,
            [sha256, PGArray.texts(Rejection.Reason.mendable.map(\.rawValue).sorted())]
        )
        let (reason, standing) = (try result.field("reason"), try result.field("standing"))
        let counts = try result.rows.map { (try $0.decode(String.self, reason), try $0.decode(Int.self, standing)) }
        return MendableRefusals(standing: counts.filter { $0.1 > 0 }, exist: !counts.isEmpty)
    }

    /// The first file stored whole with this content: its path as that load named it and the load's run; nil when
    /// none.
    package func firstStored(sha256: String) throws -> (path: String, run: Int64)? {
        let result = try connection.execute(
            "SELECT path, load_run_id AS run FROM source_files WHERE sha256 = $1 ORDER BY id LIMIT 1", [sha256])
        let (path, run) = (try result.field("path"), try result.field("run"))
        return try result.rows.first.map { (try $0.decode(String.self, path), try $0.decode(Int64.self, run)) }
    }
}
