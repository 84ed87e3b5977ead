extension PGConnection {
    /// Runs `body` inside BEGIN … COMMIT; on a thrown error it rolls back and rethrows that error.
    ///
    /// A failing ROLLBACK (for example because the connection is gone) never hides `body`'s error.
    @discardableResult
    package func withTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try bracket(begin: "BEGIN", commit: "COMMIT", rollback: "ROLLBACK", body)
    }

    /// Runs an async `body` inside BEGIN … COMMIT, rolling back and rethrowing as the synchronous form does.
    ///
    /// `body` runs in the caller's isolation, so the connection stays with the calling task whatever `body` awaits.
    @discardableResult
    package func withTransaction<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try execute("BEGIN")
        let value: Result
        do {
            value = try await body()
        } catch {
            if isHealthy { _ = try? execute("ROLLBACK") }
            throw error
        }
        try execute("COMMIT")
        return value
    }

    /// Runs `body` inside a savepoint of the open transaction; on a thrown error it rolls back to the savepoint,
    /// so the transaction goes on, and rethrows.
    /// - Important: `name` is SQL text: pass a constant.
    @discardableResult
    package func withSavepoint<Result>(_ name: String = "churn_savepoint", _ body: () throws -> Result) throws -> Result
    {
        try bracket(
            begin: "SAVEPOINT \(name)", commit: "RELEASE SAVEPOINT \(name)", rollback: "ROLLBACK TO SAVEPOINT \(name)",
            body
        )
    }

    /// Runs `begin`, then `body`, then `commit`; when `body` throws, runs `rollback` if the connection still works,
    /// ignores its failure, and rethrows `body`'s error.
    private func bracket<Result>(
        begin: String,
        commit: String,
        rollback: String,
        _ body: () throws -> Result
    ) throws -> Result {
        try execute(begin)
        let value: Result
        do {
            value = try body()
        } catch {
            if isHealthy { _ = try? execute(rollback) }
            throw error
        }
        try execute(commit)
        return value
    }

    /// Whether this session's transactions are read-only: a hot standby (a replica), or
    /// `default_transaction_read_only` set for the role, the database or the connection.
    package func isReadOnly() throws -> Bool {
        try execute("SHOW transaction_read_only").scalar == "on"
    }
}
