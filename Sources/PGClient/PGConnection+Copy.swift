import CLibPQ

extension PGConnection {
    /// Streams rows into PostgreSQL with `COPY … FROM STDIN`.
    ///
    /// `body` writes rows through the ``PGCopyWriter``, which sends them in chunks of about `chunkSize` bytes.
    /// When `body` throws, the COPY is aborted on the server, the connection stays usable, and `body`'s error is
    /// rethrown unchanged.
    ///
    /// For `FORMAT binary` the writer sends ``CopyBinary/header`` before `body`'s rows and ``CopyBinary/trailer``
    /// after them: `body` writes rows only (``CopyBinary/bytes``), whole or any of them.
    /// - Parameters:
    ///   - sql: a `COPY table (columns) FROM STDIN` statement, optionally `WITH (FORMAT binary)`.
    ///   - chunkSize: bytes buffered before each `PQputCopyData`.
    /// - Returns: the number of rows the server stored.
    /// - Throws: `body`'s error, or ``PGError`` when the server refuses the data.
    @discardableResult
    package func copyIn(
        _ sql: String,
        chunkSize: Int = 1 << 20,
        _ body: (inout PGCopyWriter) throws -> Void
    ) throws -> Int {
        defer { drainResults() }
        let started = try check(PQexec(pointer, sql), expecting: [PGRES_COPY_IN], sql: sql)
        let isBinary = PQbinaryTuples(started.pointer) == 1
        var writer = PGCopyWriter(connection: pointer, chunkSize: chunkSize)
        do {
            if isBinary { try writer.write(CopyBinary.header) }
            try body(&writer)
            if isBinary { try writer.write(CopyBinary.trailer) }
            try writer.flush()
        } catch {
            let reason = "aborted by the client: \(String(describing: error).prefix(200))"
            _ = PQputCopyEnd(pointer, reason)
            drainResults()
            throw error
        }
        guard PQputCopyEnd(pointer, nil) == 1 else {
            throw connectionError(context: Self.summary(of: sql))
        }
        let result = try check(PQgetResult(pointer), expecting: [PGRES_COMMAND_OK], sql: sql)
        return result.affectedRows
    }

    /// Streams rows out of PostgreSQL with `COPY … TO STDOUT`, one row at a time.
    ///
    /// Each call of `row` gets one row's bytes (text format: tab-separated, ending in `\n`), valid only during the
    /// call. Memory stays flat whatever the number of rows.
    /// - Returns: the number of rows read.
    /// - Throws: `row`'s error (the rest of the data is discarded and the connection stays usable), or ``PGError``.
    @discardableResult
    package func copyOut(_ sql: String, _ row: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        defer { drainResults() }
        _ = try check(PQexec(pointer, sql), expecting: [PGRES_COPY_OUT], sql: sql)
        var count = 0
        var failure: (any Error)?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(pointer, &buffer, 0)
            if length == -1 { break }
            if length == -2 {
                throw connectionError(context: Self.summary(of: sql))
            }
            guard let buffer else { continue }
            defer { PQfreemem(buffer) }
            if failure != nil { continue }
            do {
                try row(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
                count += 1
            } catch {
                // Keep reading (and discarding) so the connection ends the COPY cleanly.
                failure = error
            }
        }
        _ = try check(PQgetResult(pointer), expecting: [PGRES_COMMAND_OK], sql: sql)
        if let failure { throw failure }
        return count
    }
}
