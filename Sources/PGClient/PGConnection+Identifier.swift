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
