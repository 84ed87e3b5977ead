import Foundation
import PGClient
import TestSupport
import Testing

/// Statements sent without waiting (``PGConnection/start(_:name:)``): the server runs them while the caller does other
/// work, and the connection is usable again after the wait, a failure or a drop.
@Suite struct PGStartedStatementsTests {
    /// The first statement waits on the server for a lock another session holds: `start` returns meanwhile, the
    /// other session sees it waiting, and once the lock is free the wait returns with every statement run.
    @Test func startReturnsWhileTheServerRunsTheStatements() throws {
        let schema = try TestDatabase.makeSchema("started")
        let worker = try schema.connect()
        let other = try schema.connect()
        let key: Int64 = 0x5_7A27
        #expect(try other.tryAdvisoryLock(key))
        let pid = try #require(try worker.execute("SELECT pg_backend_pid()").scalar.flatMap { Int($0) })
        // Were `start` to wait for the statements, the lock's wait would end in an error rather than hang the test.
        try worker.execute("SET lock_timeout = '20s'")
        let started = try worker.start(
            "SELECT pg_advisory_lock(\(key)); CREATE TEMP TABLE answer AS SELECT 42 AS v; SELECT pg_advisory_unlock(\(key))",
            name: "test")
        var waiting = false
        for _ in 0..<200 where !waiting {
            waiting =
                try other.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = $1",
                    [pid]
                ).scalar == "1"
            if !waiting { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(waiting, "the started statement waits for the lock on the server while the caller goes on")
        try other.advisoryUnlock(key)
        try started.wait()
        #expect(try worker.execute("SELECT v FROM answer").scalar == "42")
    }

    @Test func theFirstFailingStatementFailsTheWait() throws {
        let connection = try TestDatabase.makeSchema("startfail").connect()
        let started = try connection.start(
            "CREATE TEMP TABLE before_failure AS SELECT 1 AS v; SELECT * FROM no_such_table; SELECT 2", name: "test")
        var failure: PGError?
        do { try started.wait() } catch { failure = error }
        let error = try #require(failure)
        #expect(error.sqlState == "42P01")
        #expect(error.kind == .statementFailed)
        #expect(error.description.contains("test"))
        // A failure in one simple query rolls back the statements before it, and the connection takes the next.
        #expect(try connection.execute("SELECT to_regclass('before_failure') IS NULL").scalar == "t")
        #expect(try connection.execute("SELECT 1").scalar == "1")
    }

    /// Dropped unwaited (a caller that failed before it came back for the answer), the statements are cancelled: a
    /// lock wait that would last until the other session let go ends at once, and the connection is usable.
    @Test func anUnwaitedStartIsCancelledAndTheConnectionGoesOn() throws {
        let schema = try TestDatabase.makeSchema("startdrop")
        let worker = try schema.connect()
        let other = try schema.connect()
        let key: Int64 = 0x5_7A28
        #expect(try other.tryAdvisoryLock(key))
        // Uncancelled, the drop would wait out the lock's timeout.
        try worker.execute("SET lock_timeout = '20s'")
        let clock = ContinuousClock()
        let dropped = clock.now
        do {
            _ = try worker.start("SELECT pg_advisory_lock(\(key))", name: "test")
        }
        #expect(clock.now - dropped < .seconds(10))
        #expect(try worker.execute("SELECT 1").scalar == "1")
        #expect(try worker.holder(of: key)?.pid != nil, "the other session still holds the lock")
        try other.advisoryUnlock(key)
    }
}
