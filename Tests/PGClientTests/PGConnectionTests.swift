import Foundation
import PGClient
import TestSupport
import Testing

@Suite struct PGConnectionTests {
    @Test func bindsParametersAsValuesNeverAsSQL() throws {
        let schema = try TestDatabase.makeSchema("params")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (v text)")
        let hostile = "x'); DROP TABLE t; --"
        try connection.execute("INSERT INTO t (v) VALUES ($1)", [hostile])
        let rows = try connection.execute("SELECT v, $1::text IS NULL FROM t", [PGNull()])
        #expect(rows.rows == [[hostile, "t"]])
    }

    /// Array parameters (``PGArray``) go with their types: text arrays carry any text as itself, and pair up with
    /// another array in `unnest`, with no cast in the SQL.
    @Test func arrayLiteralsCarryAnyTextAsItself() throws {
        let connection = try TestDatabase.makeSchema("arrays").connect()
        let values = [
            "", " ", "a,b", "{x}", "NULL", "null", "\"quoted\"", "back\\slash", "\\", "tab\tand\nnewline", "é€𝄞",
            "  padded  ", "'single'",
        ]
        let rows = try connection.execute(
            "SELECT t, n::text, pg_typeof(n)::text FROM unnest($1, $2) WITH ORDINALITY AS u (t, n, o) ORDER BY o",
            [PGArray.texts(values), PGArray.bigints(values.indices.map(Int64.init))]
        ).rows
        #expect(rows == values.indices.map { [values[$0], String($0), "bigint"] })
        #expect(try connection.execute("SELECT cardinality($1)", [PGArray.texts([])]).scalar == "0")
        let uuid = "0d4c8b6e-6f3a-4c53-9f1e-2d8b8a4f6e11"
        #expect(
            try connection.execute("SELECT pg_typeof($1)::text, ($1)[1]::text", [PGArray.uuids([uuid])]).rows
                == [["uuid[]", uuid]])
    }

    @Test func reportsSQLStateAndMessage() throws {
        let schema = try TestDatabase.makeSchema("errors")
        let connection = try schema.connect()
        let error = try #require(throws: PGError.self) {
            try connection.execute("SELECT * FROM no_such_table")
        }
        #expect(error.sqlState == "42P01")
        #expect(error.kind == .statementFailed)
        #expect(error.description.contains("no_such_table"))
        // The connection stays usable after a failed statement.
        #expect(try connection.execute("SELECT 1").scalar == "1")
    }

    @Test func connectionFailureNamesTheServerButNotThePassword() throws {
        let error = try #require(throws: PGError.self) {
            try PGConnection(url: "postgresql://alice:s3cret-pw@127.0.0.1:1/nowhere?connect_timeout=2")
        }
        #expect(error.kind == .connectionFailed)
        #expect(error.isUnreachable)
        #expect(error.description.contains("127.0.0.1"))
        #expect(!error.description.contains("s3cret-pw"))
    }

    @Test func copyInCountsBytesNotCharacters() throws {
        let schema = try TestDatabase.makeSchema("copyin")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (id int, v text)")
        let values = ["plain", "tab\there", "new\nline", "back\\slash", "€ multi-byte 𝄞", "carriage\rreturn", ""]
        let count = try connection.copyIn("COPY t (id, v) FROM STDIN", chunkSize: 1024) { writer in
            var row = CopyText()
            for (index, value) in values.enumerated() {
                row.append(index)
                try row.append(value)
                row.endRow()
            }
            row.append(99)
            row.appendNull()
            row.endRow()
            try writer.write(row: &row)
        }
        #expect(count == values.count + 1)
        let rows = try connection.execute("SELECT v FROM t ORDER BY id").rows.map { $0[0] }
        #expect(rows == values.map { Optional($0) } + [nil])
    }

    @Test func copyInRefusesNulBytes() throws {
        var row = CopyText()
        #expect(throws: PGError.self) { try row.append("a\u{0}b") }
    }

    @Test func copyInAbortsCleanlyAndRethrowsTheCallersError() throws {
        struct Stop: Error {}
        let schema = try TestDatabase.makeSchema("abort")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (v int)")
        #expect(throws: Stop.self) {
            try connection.copyIn("COPY t (v) FROM STDIN") { writer in
                try writer.write(Array("1\n2\n".utf8))
                try writer.flush()
                throw Stop()
            }
        }
        #expect(try connection.execute("SELECT count(*) FROM t").scalar == "0")
        #expect(try connection.execute("SELECT 1").scalar == "1")
    }

    @Test func copyInReportsBadDataWithSQLState() throws {
        let schema = try TestDatabase.makeSchema("baddata")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (v int)")
        let error = try #require(throws: PGError.self) {
            try connection.copyIn("COPY t (v) FROM STDIN") { writer in
                try writer.write(Array("1\nnot-a-number\n".utf8))
            }
        }
        #expect(error.sqlState == "22P02")
        #expect(error.isDataError)
        #expect(try connection.execute("SELECT 1").scalar == "1")
    }

    @Test(arguments: [1 << 20, 100])
    func copySpoolSendsRowsInOrderFromMemoryOrItsFile(memoryLimit: Int) throws {
        let schema = try TestDatabase.makeSchema("spool")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (arrival bigserial, id integer, v text)")
        let spool = CopySpool(memoryLimit: memoryLimit)
        var row = CopyText()
        for id in 1...5_000 {
            row.removeAll()
            row.append(id)
            try row.append("row \(id)\twith a tab")
            row.endRow()
            try spool.append(row.bytes)
        }
        #expect(spool.isInFile == (memoryLimit < spool.count))
        let stored = try connection.copyIn("COPY t (id, v) FROM STDIN", chunkSize: 4096) { try spool.send(to: &$0) }
        #expect(stored == 5_000)
        let check = try connection.execute(
            "SELECT count(*), bool_and(v = 'row ' || id || E'\\twith a tab'), bool_and(arrival = id) FROM t"
        )
        #expect(check.rows == [["5000", "t", "t"]])
    }

    @Test func copyOutStreamsRowsInOrder() throws {
        let schema = try TestDatabase.makeSchema("copyout")
        let connection = try schema.connect()
        var lines: [String] = []
        let count = try connection.copyOut(
            "COPY (SELECT g, 'v' || g FROM generate_series(1, 5) g ORDER BY g) TO STDOUT"
        ) {
            lines.append(String(decoding: $0, as: UTF8.self))
        }
        #expect(count == 5)
        #expect(lines.first == "1\tv1\n")
        #expect(lines.last == "5\tv5\n")
    }

    @Test func transactionsRollBackOnErrorAndKeepTheError() throws {
        struct Boom: Error {}
        let schema = try TestDatabase.makeSchema("tx")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (v int)")
        #expect(throws: Boom.self) {
            try connection.withTransaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        try connection.withTransaction {
            try connection.execute("INSERT INTO t VALUES (2)")
            #expect(throws: PGError.self) {
                try connection.withSavepoint {
                    try connection.execute("INSERT INTO t VALUES ('x')")
                }
            }
            try connection.execute("INSERT INTO t VALUES (3)")
        }
        #expect(try connection.execute("SELECT string_agg(v::text, ',' ORDER BY v) FROM t").scalar == "2,3")
    }

    @Test func advisoryLocksExcludeOtherSessions() throws {
        let schema = try TestDatabase.makeSchema("locks")
        let first = try schema.connect()
        let second = try schema.connect()
        let key: Int64 = 0x7E57
        #expect(try first.tryAdvisoryLock(key))
        #expect(try second.advisoryLock(key, timeout: 0.3) == false)
        try first.advisoryUnlock(key)
        #expect(try second.advisoryLock(key, timeout: 1))
    }

    /// A command that must wait for a lock first hears which session holds it, for a key of either half's sign.
    @Test(arguments: [Int64(0x7E59), Int64(bitPattern: 0xF123_4567_89AB_CDEF)])
    func aWaiterIsToldWhichSessionHoldsTheLock(key: Int64) throws {
        let schema = try TestDatabase.makeSchema("lockholder")
        let holder = try schema.connect()
        let waiter = try schema.connect()
        #expect(try waiter.holder(of: key) == nil)
        var heard: [LockHolder?] = []
        #expect(try waiter.advisoryLock(key, timeout: 1, waiting: { heard.append($0) }))
        #expect(heard.isEmpty, "a free lock is taken without a word")
        try waiter.advisoryUnlock(key)

        #expect(try holder.tryAdvisoryLock(key))
        let pid = try #require(try holder.execute("SELECT pg_backend_pid()").scalar.flatMap { Int($0) })
        #expect(try waiter.advisoryLock(key, timeout: 0.2, waiting: { heard.append($0) }) == false)
        #expect(heard.count == 1)
        let told = try #require(heard.first ?? nil)
        #expect(told.pid == pid)
        #expect(told.applicationName == "churn")
        #expect(told.description.hasPrefix("PostgreSQL session \(pid) (churn), connected 20"), "\(told)")
        #expect(told.description.hasSuffix(" UTC"))
        // Another key the same session holds is not this one.
        #expect(try waiter.holder(of: key &+ 1) == nil)
        try holder.advisoryUnlock(key)
        #expect(try waiter.holder(of: key) == nil)
    }

    /// Without a timeout the waiter hears which session holds the lock, then waits until that session lets go.
    @Test func aWaitWithoutATimeoutNamesTheHolderAndEndsWhenItLetsGo() throws {
        let schema = try TestDatabase.makeSchema("lockwait")
        let holder = try schema.connect()
        let waiter = try schema.connect()
        let key: Int64 = 0x7E5A
        var heard: [LockHolder?] = []
        try waiter.advisoryLock(key) { heard.append($0) }
        #expect(heard.isEmpty, "a free lock is taken without a word")
        try waiter.advisoryUnlock(key)

        #expect(try holder.tryAdvisoryLock(key))
        let pid = try #require(try holder.execute("SELECT pg_backend_pid()").scalar.flatMap { Int($0) })
        // The holder's session ends a moment after the waiter has begun to wait, from a session of its own.
        let url = schema.url
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            _ = try? PGConnection(url: url).execute("SELECT pg_terminate_backend(\(pid))")
        }
        try waiter.advisoryLock(key) { heard.append($0) }
        #expect(heard.map { $0?.pid } == [pid])
        #expect(try waiter.holder(of: key) != nil, "the waiter holds the lock now")
    }

    @Test func anAdvisoryLockWaitEndsAtTheTimeoutWithLockNotAvailable() throws {
        let schema = try TestDatabase.makeSchema("locktimeout")
        let holder = try schema.connect()
        let waiter = try schema.connect()
        let key: Int64 = 0x7E58
        #expect(try holder.tryAdvisoryLock(key))
        try waiter.execute("SET lock_timeout = '5min'")
        let error = #expect(throws: PGError.self) { try waiter.waitForAdvisoryLock(key, timeout: 0.2) }
        #expect(error?.sqlState == "55P03")
        #expect(error?.isLockNotAvailable == true)
        #expect(try waiter.advisoryLock(key, timeout: 0) == false)
        // The session's own lock_timeout is back, and the session takes the lock once it is free.
        #expect(try waiter.execute("SHOW lock_timeout").scalar == "5min")
        try holder.advisoryUnlock(key)
        try waiter.waitForAdvisoryLock(key, timeout: 1)
        let held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()"
        #expect(try waiter.execute(held).scalar == "1")
        #expect(try waiter.execute("SHOW lock_timeout").scalar == "5min")
    }

    @Test func quotesIdentifiers() throws {
        let schema = try TestDatabase.makeSchema("ident")
        let connection = try schema.connect()
        #expect(try connection.quoteIdentifier("a\"b") == "\"a\"\"b\"")
    }
}
