import CLibPQ

extension PGConnection {
    /// Quotes a name for use as an SQL identifier (`PQescapeIdentifier`).
    /// - Important: identifiers cannot be bound as parameters; pass every dynamic one through this.
    package func quoteIdentifier(_ name: String) throws(PGError) -> String {
        try quote(name, with: PQescapeIdentifier, as: "identifier")
    }

    /// Quotes a value as an SQL string literal (`PQescapeLiteral`), for the rare statement that takes no
    /// parameters (`COPY (SELECT …) TO STDOUT`).
    /// - Important: prefer bound parameters everywhere else.
    package func quoteLiteral(_ text: String) throws(PGError) -> String {
        try quote(text, with: PQescapeLiteral, as: "a literal")
    }

    /// Runs one of libpq's escaping functions and copies its result before freeing it.
    private func quote(
        _ text: String,
        with escape: (OpaquePointer?, UnsafePointer<CChar>?, Int) -> UnsafeMutablePointer<CChar>?,
        as kind: String
    ) throws(PGError) -> String {
        guard let escaped = escape(pointer, text, text.utf8.count) else {
            throw PGError(
                kind: .invalidValue, message: "cannot quote \(kind): \(connectionError(context: nil).message)"
            )
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }
}
