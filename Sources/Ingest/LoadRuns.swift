import PGClient
import Store

/// The `load_runs` bookkeeping: a row per run, its counts and its end.
///
/// A running run holds its ``LoadRunLocks`` lock for its whole session; a row still marked `running` whose lock is
/// free belongs to a process that is gone, and is marked `interrupted`.
struct LoadRuns {
    let connection: PGConnection
    let locks: LoadRunLocks

    init(connection: PGConnection) throws {
        self.connection = connection
        locks = try LoadRunLocks(connection: connection)
    }

    func markAbandonedRunsInterrupted() throws {
        try locks.markAbandonedRunsInterrupted()
    }

    /// Records a new run and takes its lock in the same transaction, so no other session ever sees the run
    /// `running` without its lock held (and marks it interrupted).
    func begin(command: String, verified: Bool, acceptance: String) throws -> Int64 {
        try connection.withTransaction {
            let id = try connection.execute(
                "INSERT INTO load_runs (command, verified, acceptance) VALUES ($1, $2, $3) RETURNING id",
                [command, verified, acceptance]
            ).scalar.flatMap { Int64($0) }
            guard let id else { throw PGError(kind: .unexpectedResult, message: "INSERT … RETURNING id gave no id") }
            try locks.hold(runID: id)
            return id
        }
    }

    func record(_ summary: LoadSummary, runID: Int64) throws {
        try record(
            files: summary.files.count, records: summary.records, loaded: summary.loaded,
            duplicates: summary.duplicates, rejected: summary.rejected, runID: runID)
    }

    /// Records the run's counts so far: files done, records read, stored, already stored, refused.
    func record(files: Int, records: Int, loaded: Int, duplicates: Int, rejected: Int, runID: Int64) throws {
        try connection.execute(
            """
            UPDATE load_runs SET files = $2, records = $3, loaded = $4, duplicates = $5,
                rejected = $6
            WHERE id = $1
            """,
            [runID, files, records, loaded, duplicates, rejected]
        )
    }

    func finish(runID: Int64, status: String, error: String?) throws {
        try connection.execute(
            "UPDATE load_runs SET status = $2, finished_at = now(), error = $3 WHERE id = $1",
            [runID, status, error]
        )
        try locks.release(runID: runID)
    }
}
