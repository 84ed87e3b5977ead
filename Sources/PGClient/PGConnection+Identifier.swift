import CLibPQ

extension PGConnection {
    /// Quotes a name for use as an SQL identifier (`PQescapeIdentifier`).
    /// - Important: identifiers cannot be bound as parameters; pass every dynamic one through this.
    package func quoteIdentifier(_ name: String) throws(PGError) -> String {
        guard let escaped = PQescapeIdentifier(pointer, name, name.utf8.count) else {
            throw PGError(kind: .invalidValue, message: "cannot quote identifier: \(connectionError(context: nil).message)")
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }
}

extension PGConnection {
    /// Quotes a value as an SQL string literal (`PQescapeLiteral`), for the rare statement that takes no
    /// parameters (`COPY (SELECT …) TO STDOUT`).
    /// - Important: prefer bound parameters everywhere else.
    package func quoteLiteral(_ text: String) throws(PGError) -> String {
        guard let escaped = PQescapeLiteral(pointer, text, text.utf8.count) else {
            throw PGError(kind: .invalidValue, message: "cannot quote a literal: \(connectionError(context: nil).message)")
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }
}
