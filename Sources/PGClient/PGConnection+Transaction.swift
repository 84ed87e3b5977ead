extension PGConnection {
    /// Runs `body` inside BEGIN … COMMIT; on a thrown error it rolls back and rethrows that error.
    ///
    /// A failing ROLLBACK (for example because the connection is gone) never hides `body`'s error.
    @discardableResult
    package func withTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN")
        let value: Result
        do {
            value = try body()
        } catch {
            if isHealthy { _ = try? execute("ROLLBACK") }
            throw error
        }
        try execute("COMMIT")
        return value
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
    @discardableResult
    package func withSavepoint<Result>(_ name: String = "churn_savepoint", _ body: () throws -> Result) throws -> Result {
        try execute("SAVEPOINT \(name)")
        let value: Result
        do {
            value = try body()
        } catch {
            if isHealthy { _ = try? execute("ROLLBACK TO SAVEPOINT \(name)") }
            throw error
        }
        try execute("RELEASE SAVEPOINT \(name)")
        return value
    }
}
