import PGClient

/// The advisory lock each load run holds on its own id for as long as its session lives, which tells a live run
/// from a dead one.
///
/// A `load_runs` row still marked `running` whose lock is free belongs to a process that is gone (its session ended
/// with it, and the lock went with the session): ``markAbandonedRunsInterrupted()`` marks it `interrupted`. Loads
/// mark such runs when they start and finish, and so does the episode analysis before it decides which files are
/// settled, so that the rows a killed load committed get analyzed.
package struct LoadRunLocks {
    let connection: PGConnection
    /// The lock namespace of this schema: advisory locks belong to the database, and other churn schemas in it
    /// number their runs from 1 too.
    let namespace: Int32

    package init(connection: PGConnection) throws {
        self.connection = connection
        let hash = try connection.execute("SELECT hashtext(current_schema())").scalar.flatMap { Int32($0) } ?? 0
        namespace = Self.lockNamespace ^ hash
    }

    /// Namespace of the per-run advisory locks (two-key form: namespace, run id).
    static let lockNamespace: Int32 = 0x4348_5552

    /// Takes the run's lock for this session, until ``release(runID:)`` or the session's end. Inside a transaction,
    /// the lock is held from the moment the statement runs, whether the transaction commits or not.
    package func hold(runID: Int64) throws {
        try connection.execute("SELECT pg_advisory_lock($1, $2)", keys(runID))
    }

    /// Releases the run's lock taken by ``hold(runID:)``.
    package func release(runID: Int64) throws {
        try connection.execute("SELECT pg_advisory_unlock($1, $2)", keys(runID))
    }

    /// Whether another session holds the run's lock, as a live run does.
    package func isHeld(runID: Int64) throws -> Bool {
        let free =
            try connection.execute("SELECT pg_try_advisory_lock($1, $2)", keys(runID)).scalar == "t"
        if free { try release(runID: runID) }
        return !free
    }

    /// Marks the runs whose process died (status `running`, lock free) as `interrupted`.
    package func markAbandonedRunsInterrupted() throws {
        let running = try connection.execute("SELECT id FROM load_runs WHERE status = 'running' ORDER BY id")
        let idField = try running.field("id")
        for row in running.rows {
            let id = try row.decode(Int64.self, idField)
            guard try !isHeld(runID: id) else { continue }
            try connection.execute(
                """
                UPDATE load_runs SET status = 'interrupted', finished_at = now(),
                    error = 'the process ended before the run finished; the files and batches it committed are kept'
                WHERE id = $1 AND status = 'running'
                """,
                [id]
            )
        }
    }

    private func keys(_ runID: Int64) -> [any PGParameter] {
        [namespace, Int32(truncatingIfNeeded: runID)]
    }
}
