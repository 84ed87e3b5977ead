import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to PostgreSQL through libpq.
///
/// Not `Sendable`: one thread uses a connection at a time. The `PGconn` is finished exactly once: in `deinit`, or in
/// `init` when connecting failed (then there is no connection to deinitialize).
package final class PGConnection {
    let pointer: OpaquePointer

    /// Where this connection points, for messages: host or socket directory, port, database, user.
    /// Never contains a password.
    package let target: String

    /// Connects to PostgreSQL.
    /// - Parameter url: a libpq connection URI (`postgresql://…`) or key=value conninfo, used verbatim.
    ///   `nil` lets libpq read its `PG*` environment variables.
    /// - Throws: ``PGError`` of kind `connectionFailed`, naming the server but not the password.
    /// - Important: the text of `url` never appears in an error or a log: it may hold a password.
    package init(url: String?, applicationName: String = "churn") throws(PGError) {
        if let url { try Self.checkConnectionString(url) }
        // Later keywords override earlier ones; `dbname` is expanded in place when it is a URI or conninfo.
        var keywords = ["connect_timeout", "fallback_application_name"]
        var values = ["10", applicationName]
        if let url, !url.isEmpty {
            keywords.append("dbname")
            values.append(url)
        }
        keywords.append("client_encoding")
        values.append("UTF8")
        let connection = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PGError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        let target = Self.describe(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PQerrorMessage(connection).map { String(cString: $0) } ?? "unknown error"
            PQfinish(connection)
            throw PGError(
                kind: .connectionFailed,
                message: message.trimmingTrailingNewlines(),
                context: target
            )
        }
        self.pointer = connection
        self.target = target
        // Route server notices (e.g. "relation already exists, skipping") away from stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(pointer)
    }

    private static func describe(_ connection: OpaquePointer) -> String {
        func value(_ text: UnsafeMutablePointer<CChar>?) -> String {
            text.map { String(cString: $0) } ?? ""
        }
        var host = value(PQhost(connection))
        if host.isEmpty { host = "localhost" }
        let port = value(PQport(connection))
        let database = value(PQdb(connection))
        let user = value(PQuser(connection))
        var text = host
        if !port.isEmpty { text += ":\(port)" }
        if !database.isEmpty { text += " database \(database)" }
        if !user.isEmpty { text += " as \(user)" }
        return text
    }

    /// Whether the connection is still usable.
    package var isHealthy: Bool {
        PQstatus(pointer) == CONNECTION_OK
    }

    /// Refuses what libpq would take for a database's name although it cannot be meant as one: a URL of another
    /// scheme (`https://…`), or words without `key=value` pairs. libpq reads a `postgresql://` or `postgres://` URI,
    /// `key=value` pairs, or else the whole text as a database name, and then reports a server it cannot reach
    /// rather than a string it cannot use. The error is a configuration error (``PGError/isConfigurationError``),
    /// and names the scheme, never the rest of a URL, which may hold a password.
    static func checkConnectionString(_ text: String) throws(PGError) {
        if let scheme = text.firstRange(of: "://").map({ text[..<$0.lowerBound] }),
            !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) })
        {
            guard scheme == "postgresql" || scheme == "postgres" else {
                throw PGError(
                    kind: .connectionFailed,
                    message: "invalid URI scheme \(scheme)://: a database URL begins postgresql:// or postgres://")
            }
            return
        }
        if !text.contains("="), text.contains(where: \.isWhitespace) {
            throw PGError(
                kind: .connectionFailed,
                message: "invalid URI \"\(text.prefix(60))\": not postgresql://user@host:port/database, nor "
                    + "key=value pairs, nor a database name")
        }
    }

    /// Whether a transaction block is open (or failed and awaiting ROLLBACK).
    package var isInTransaction: Bool {
        let status = PQtransactionStatus(pointer)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Runs one statement with parameters bound in PostgreSQL's text format (`$1`, `$2`, …), each sent with its type
    /// (``PGParameter/parameterType``), and returns its rows.
    /// - Parameters:
    ///   - sql: one statement.
    ///   - parameters: typed values (``PGParameter``: text, integers, booleans, instants, optionals of them for SQL
    ///     NULL).
    /// - Throws: ``PGError`` carrying the server's message and SQLSTATE.
    /// - Important: never splice values into `sql`: pass them as parameters, or write a ``PGQuery``.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [any PGParameter] = []) throws(PGError) -> PGRows {
        defer { drainResults() }
        let texts = parameters.map { $0.parameterText }
        let types = parameters.map(\.parameterTypeOID)
        let raw: OpaquePointer? = withCStringArray(texts) { values in
            types.withUnsafeBufferPointer { types in
                PQexecParams(pointer, sql, Int32(texts.count), types.baseAddress, values, nil, nil, 0)
            }
        }
        let result = try check(raw, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK], sql: sql)
        return result.rows()
    }

    /// Runs one ``PGQuery``: its statement with the parameters it binds.
    @discardableResult
    package func execute(_ query: PGQuery) throws(PGError) -> PGRows {
        try execute(query.sql, query.parameters)
    }

    /// Wraps a libpq result at once and turns failures into ``PGError``.
    func check(_ raw: OpaquePointer?, expecting: [ExecStatusType], sql: String) throws(PGError) -> PGResult {
        guard let raw else {
            throw connectionError(context: Self.summary(of: sql))
        }
        let result = PGResult(raw)
        let status = result.status
        guard expecting.contains(status) else {
            if !isHealthy {
                throw connectionError(context: Self.summary(of: sql))
            }
            throw PGError(
                kind: status == PGRES_FATAL_ERROR ? .statementFailed : .unexpectedResult,
                message: result.errorMessage.isEmpty ? "unexpected status \(status)" : result.errorMessage,
                sqlState: result.sqlState,
                context: Self.summary(of: sql)
            )
        }
        return result
    }

    /// The error for a connection that broke, with libpq's message.
    func connectionError(context: String?) -> PGError {
        let message = PQerrorMessage(pointer).map { String(cString: $0) } ?? ""
        return PGError(
            kind: isHealthy ? .statementFailed : .connectionLost,
            message: message.isEmpty ? "no result from the server" : message.trimmingTrailingNewlines(),
            context: context.map { "\($0); server \(target)" } ?? "server \(target)"
        )
    }

    /// Frees any results left over after a command, so the connection is ready for the next one.
    func drainResults() {
        while let leftover = PQgetResult(pointer) {
            PQclear(leftover)
        }
    }

    /// The first words of a statement, for error context.
    static func summary(of sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).prefix(4)
        return words.joined(separator: " ")
    }
}

/// Passes an array of Swift strings as a C `const char * const *`, valid only inside `body`.
/// `nil` elements become NULL pointers, and a NULL pointer always follows the last element (libpq's keyword arrays
/// are NULL-terminated). Every copy is freed when `body` returns.
func withCStringArray<Result, Failure: Error>(
    _ strings: [String?],
    _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws(Failure) -> Result
) throws(Failure) -> Result {
    let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: strings.count + 1)
    array.initialize(repeating: nil, count: strings.count + 1)
    defer {
        for index in 0..<strings.count {
            free(UnsafeMutablePointer(mutating: array[index]))
        }
        array.deallocate()
    }
    for (index, string) in strings.enumerated() {
        array[index] = string.flatMap { UnsafePointer(strdup($0)) }
    }
    return try body(UnsafePointer(array))
}

/// Passes non-optional strings; see ``withCStringArray(_:_:)``.
func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    withCStringArray(strings.map { Optional($0) }, body)
}
