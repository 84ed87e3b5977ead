import CLibPQ

extension PGConnection {
    /// Sends trusted SQL statements (no parameters; several separated by `;`) without waiting for them, so that the
    /// server runs them while this process does other work (libpq's `PQsendQuery`). The connection takes no other
    /// statement until ``PGStartedStatements/wait()`` has returned.
    /// - Parameters:
    ///   - sql: the project's own statements, with values already quoted; never text from outside.
    ///   - name: what they do, for an error's context.
    /// - Throws: ``PGError`` when the statements cannot be sent.
    package func start(_ sql: String, name: String) throws(PGError) -> PGStartedStatements {
        guard PQsendQuery(pointer, sql) == 1 else {
            drainResults()
            throw connectionError(context: name)
        }
        return PGStartedStatements(connection: self, name: name)
    }
}

/// Statements the server is running (``PGConnection/start(_:name:)``). Waiting for them is the only way on: one that
/// is dropped unwaited cancels them and waits for the server to stop, so the connection is usable again either way.
package struct PGStartedStatements: ~Copyable {
    private let connection: PGConnection
    private let name: String
    private var waited = false

    fileprivate init(connection: PGConnection, name: String) {
        self.connection = connection
        self.name = name
    }

    /// Waits until every statement has run.
    /// - Throws: ``PGError`` with the first failing statement's message and SQLSTATE; the statements after it did
    ///   not run.
    package consuming func wait() throws(PGError) {
        waited = true
        var failure: PGError?
        while let raw = PQgetResult(connection.pointer) {
            let result = PGResult(raw)
            let status = result.status
            if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && failure == nil {
                failure = PGError(
                    kind: connection.isHealthy ? .statementFailed : .connectionLost,
                    message: result.errorMessage.isEmpty ? "unexpected status \(status)" : result.errorMessage,
                    sqlState: result.sqlState, context: name)
            }
        }
        if let failure { throw failure }
        if !connection.isHealthy { throw connection.connectionError(context: name) }
    }

    deinit {
        guard !waited else { return }
        if let cancel = PQgetCancel(connection.pointer) {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &message, Int32(message.count))
            PQfreeCancel(cancel)
        }
        connection.drainResults()
    }
}
