import PGClient

/// A file stored whole by an earlier load that accepted as this one does: loading the same bytes again can store
/// nothing new, so the loader records the file without reading its lines (``Loader``).
///
/// A load of a file accepts each line as its stored notification's copy, refuses it, or stores it. When the file's
/// bytes (its SHA-256 and size) are those of a file an earlier run stored whole (`source_files.sha256` set) with no
/// input refused, and that run's `load_runs.acceptance` is this load's (the same trust roots and nested checks, the
/// same `--bundle-id`, `--environment` and record limit), every line is again the same line of the same file,
/// accepted by the same rules: a copy counted once however often the file is loaded. Decoding, verifying and
/// looking up its lines would find exactly that. A file with refused inputs is read as usual, so that a load after
/// the cause is fixed stores what was refused.
struct StoredWholeFile: Sendable {
    /// The file's SHA-256, lowercase hex.
    var sha256: String
    var records: Int
    /// The first run that stored a file of these bytes.
    var firstRun: Int64

    /// The files stored whole, with no input refused, of `size` bytes, by runs whose acceptance is `acceptance`: the
    /// files a file of that size may be; none when no run stored one (the file is then read once, as usual).
    static func candidates(size: Int64, acceptance: String, connection: PGConnection) throws -> [StoredWholeFile] {
        let result = try connection.execute(
            """
            SELECT f.sha256, max(f.records) AS records,
                   (SELECT min(o.load_run_id) FROM source_files o WHERE o.sha256 = f.sha256) AS first_run
            FROM source_files f JOIN load_runs r ON r.id = f.load_run_id
            WHERE f.size_bytes = $1 AND f.sha256 <> '' AND f.rejected = 0 AND r.acceptance = $2
            GROUP BY f.sha256
            """,
            [String(size), acceptance]
        )
        let fields = (
            sha256: try result.field("sha256"), records: try result.field("records"),
            firstRun: try result.field("first_run")
        )
        return try result.rows.map { row in
            StoredWholeFile(
                sha256: try row.decode(String.self, fields.sha256), records: try row.decode(Int.self, fields.records),
                firstRun: try row.decode(Int64.self, fields.firstRun))
        }
    }

    /// The SHA-256 and size of the file at `path`, read to the end without decoding it.
    static func digest(ofFile path: String) throws -> SourceDigest {
        let source = try ByteSource(path: path)
        try source.skipToEnd()
        return SourceDigest(sha256: source.sha256Hex(), bytesRead: source.rawBytesRead)
    }
}
