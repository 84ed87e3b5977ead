/// The one error type of the PostgreSQL client: what failed, the server's message and SQLSTATE, and where.
///
/// Descriptions never contain the connection string or a password.
@usableFromInline
package struct PGError: Error, CustomStringConvertible, Sendable {
    /// The broad class of failure; callers map these to exit codes.
    package enum Kind: String, Sendable {
        /// The server could not be reached, or refused the connection.
        case connectionFailed
        /// The connection broke during work (server stopped, network gone).
        case connectionLost
        /// The server rejected a statement.
        case statementFailed
        /// COPY data was refused or the COPY protocol went wrong.
        case copyFailed
        /// A value could not be sent (for example a NUL byte in text).
        case invalidValue
        /// A result had an unexpected shape.
        case unexpectedResult
    }

    package var kind: Kind
    /// The server's (or libpq's) message, without a trailing newline.
    package var message: String
    /// The five-character SQLSTATE, when the server sent one.
    package var sqlState: String?
    /// What was being done: a statement's first words, a table name, a host.
    package var context: String?

    package init(kind: Kind, message: String, sqlState: String? = nil, context: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.context = context
    }

    /// True when the failure means the database is not reachable (now or any more).
    package var isUnreachable: Bool {
        if isAuthenticationFailure || isConfigurationError { return false }
        switch kind {
        case .connectionFailed, .connectionLost: return true
        default:
            // Class 08: connection exception; 57P01..57P03: admin shutdown, crash shutdown, cannot connect now.
            guard let state = sqlState else { return false }
            return state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
        }
    }

    /// True when the server refused the credentials: a wrong or missing password, an unknown role, or no
    /// `pg_hba.conf` entry that lets this user in (SQLSTATE class 28). A connection attempt carries no SQLSTATE,
    /// so the server's message is read as well; it is matched in English, PostgreSQL's default `lc_messages`.
    package var isAuthenticationFailure: Bool {
        if let state = sqlState { return state.hasPrefix("28") }
        guard kind == .connectionFailed else { return false }
        let text = message.lowercased()
        if text.contains("role \""), text.contains("does not exist") { return true }
        return Self.authenticationFailureMessages.contains { text.contains($0) }
    }

    private static let authenticationFailureMessages = [
        "password authentication failed", "no password supplied", "authentication failed for user",
        "no pg_hba.conf entry", "pg_hba.conf rejects connection", "password is required",
    ]

    /// True when the connection settings themselves are wrong: a database that does not exist, or a
    /// `DATABASE_URL` / conninfo string libpq cannot parse. Retrying cannot help; the settings must change.
    /// A connection attempt carries no SQLSTATE, so libpq's message is read (in English, as for
    /// ``isAuthenticationFailure``).
    package var isConfigurationError: Bool {
        if sqlState == "3D000" { return true }  // invalid_catalog_name: the database does not exist
        guard kind == .connectionFailed else { return false }
        let text = message.lowercased()
        if text.contains("database \""), text.contains("does not exist") { return true }
        return Self.configurationMessages.contains { text.contains($0) }
    }

    private static let configurationMessages = [
        "invalid connection option", "missing \"=\" after", "invalid uri", "invalid percent-encoded token",
        "unterminated quoted string", "invalid integer value", "invalid sslmode value", "invalid port number",
        "end of string reached when looking for matching", "unexpected spaces found in",
    ]

    /// True for SQLSTATE class 22 (data exception) and 23 (integrity violation): a row, not the run, is bad.
    package var isDataError: Bool {
        guard let state = sqlState else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23")
    }

    /// True for SQLSTATE 55P03 (lock_not_available): a lock wait ran out of `lock_timeout`, or `NOWAIT` found the
    /// lock taken.
    package var isLockNotAvailable: Bool {
        sqlState == "55P03"
    }

    @usableFromInline
    package var description: String {
        var text: String
        switch kind {
        case .connectionFailed: text = "cannot connect to PostgreSQL"
        case .connectionLost: text = "lost the connection to PostgreSQL"
        case .statementFailed: text = "PostgreSQL rejected a statement"
        case .copyFailed: text = "COPY failed"
        case .invalidValue: text = "a value cannot be sent to PostgreSQL"
        case .unexpectedResult: text = "unexpected result from PostgreSQL"
        }
        if let context, !context.isEmpty { text += " (\(context))" }
        // libpq adds hints on lines of their own ("\n\tIs the server running locally…"): one line, for logs.
        let lines = message.split(whereSeparator: \.isNewline).map { $0.drop(while: \.isWhitespace) }
        text += ": " + lines.filter { !$0.isEmpty }.joined(separator: "; ")
        if let sqlState { text += " [SQLSTATE \(sqlState)]" }
        return text
    }
}
