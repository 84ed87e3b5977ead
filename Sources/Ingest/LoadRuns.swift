import PGClient

/// The `load_runs` bookkeeping: a row per run, and detection of runs that died.
///
/// A running run holds an advisory lock on its own id for its whole session; a row still marked `running` whose
/// lock is free belongs to a process that is gone, and is marked `interrupted`.
struct LoadRuns {
    let connection: PGConnection
    /// The lock namespace of this schema: advisory locks belong to the database, and other churn schemas in it
    /// number their runs from 1 too.
    let namespace: Int32

    init(connection: PGConnection) throws {
        self.connection = connection
        let hash = try connection.execute("SELECT hashtext(current_schema())").scalar.flatMap { Int32($0) } ?? 0
        namespace = Self.lockNamespace ^ hash
    }

    /// Namespace of the per-run advisory locks (two-key form: namespace, run id).
    static let lockNamespace: Int32 = 0x4348_5552

    func markAbandonedRunsInterrupted() throws {
        let running = try connection.execute("SELECT id FROM load_runs WHERE status = 'running' ORDER BY id").rows
        for row in running {
            guard let text = row.first ?? nil, let id = Int64(text) else { continue }
            let free = try connection.execute(
                "SELECT pg_try_advisory_lock($1::integer, $2::integer)", [String(namespace), String(Int32(truncatingIfNeeded: id))]
            ).scalar == "t"
            guard free else { continue }
            try connection.execute(
                """
                UPDATE load_runs SET status = 'interrupted', finished_at = now(),
                    error = 'the process ended before the run finished; files it committed are kept'
                WHERE id = $1::bigint AND status = 'running'
                """,
                [String(id)]
            )
            try connection.execute(
                "SELECT pg_advisory_unlock($1::integer, $2::integer)", [String(namespace), String(Int32(truncatingIfNeeded: id))]
            )
        }
    }

    func begin(command: String, verified: Bool) throws -> Int64 {
        let id = try connection.execute(
            "INSERT INTO load_runs (command, verified) VALUES ($1, $2::boolean) RETURNING id",
            [command, verified ? "true" : "false"]
        ).scalar.flatMap { Int64($0) }
        guard let id else { throw PGError(kind: .unexpectedResult, message: "INSERT … RETURNING id gave no id") }
        try connection.execute(
            "SELECT pg_advisory_lock($1::integer, $2::integer)", [String(namespace), String(Int32(truncatingIfNeeded: id))]
        )
        return id
    }

    func record(_ summary: LoadSummary, runID: Int64) throws {
        try connection.execute(
            """
            UPDATE load_runs SET files = $2::integer, records = $3::bigint, loaded = $4::bigint, duplicates = $5::bigint,
                rejected = $6::bigint
            WHERE id = $1::bigint
            """,
            [
                String(runID), String(summary.files.count), String(summary.records), String(summary.loaded),
                String(summary.duplicates), String(summary.rejected),
            ]
        )
    }

    func finish(runID: Int64, status: String, error: String?) throws {
        try connection.execute(
            "UPDATE load_runs SET status = $2, finished_at = now(), error = $3 WHERE id = $1::bigint",
            [String(runID), status, error]
        )
        try connection.execute(
            "SELECT pg_advisory_unlock($1::integer, $2::integer)", [String(namespace), String(Int32(truncatingIfNeeded: runID))]
        )
    }
}
