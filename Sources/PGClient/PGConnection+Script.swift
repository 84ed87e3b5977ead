import CLibPQ

extension PGConnection {
    /// Runs a trusted multi-statement SQL script from the project's own files (no parameters).
    /// - Important: only for SQL shipped with the tool; never for text that contains user input.
    package func executeScript(_ sql: String, name: String) throws(PGError) {
        defer { drainResults() }
        var failure: PGError?
        guard PQsendQuery(pointer, sql) == 1 else {
            throw connectionError(context: name)
        }
        while let raw = PQgetResult(pointer) {
            let result = PGResult(raw)
            let status = result.status
            if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && failure == nil {
                failure = PGError(
                    kind: .statementFailed,
                    message: result.errorMessage,
                    sqlState: result.sqlState,
                    context: name
                )
            }
        }
        if let failure { throw failure }
        if !isHealthy { throw connectionError(context: name) }
    }
}
