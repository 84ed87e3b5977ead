import Foundation
import PGClient
import Store
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loads at once decode and verify side by side and end with each notification stored exactly once; the episode
/// analysis leaves a file that is still being loaded for later, and analyzes the rows a killed load committed.
@Suite struct ConcurrentLoadTests {
    @Test func overlappingLoadsAtOnceDecodeSideBySideAndStoreEachNotificationOnce() throws {
        let exports = try CrashTests.exports.get()
        let directory = exports.directory.appendingPathComponent("overlap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let first = directory.appendingPathComponent("first.jsonl")
        let second = directory.appendingPathComponent("second.jsonl")
        try (try Self.export(0) + Self.export(1) + Self.export(2)).write(to: first)
        try (try Self.export(2) + Self.export(1) + Self.export(3)).write(to: second)

        let schema = try TestDatabase.makeSchema("overlap")
        // Both loads start while this session holds the write lock, and it lets go once both wait for it: neither
        // can be done before the other has begun, whatever the machine's pace.
        let gate = try schema.migrated()
        let writeLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.loadWrite, on: gate)
        #expect(try gate.tryAdvisoryLock(writeLock))
        let loads = try [first, second].map { file in
            try ChurnCommand.start(
                try loadArguments(file.path, into: schema)
                    + ["--workers", "1", "--batch-size", "25", "--log-level", "debug", "--log-format", "json"]
            )
        }
        let bothWaited = try Self.waitUntil {
            try Self.waiters(for: writeLock, on: gate) == 2 || !loads.allSatisfy(\.isRunning)
        }
        try gate.advisoryUnlock(writeLock)
        let results = loads.map { $0.wait() }
        #expect(bothWaited, "the loads did not both wait for the write lock")
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.stderr))")

        // Their decoding overlapped: some batch of one was decoded while some batch of the other was.
        let batches = try results.map { try Self.batchesWritten(in: $0.stderr) }
        #expect(batches.map(\.count) == [34, 34], "831 records in batches of 25")
        let overlapping = batches[0].contains { one in
            batches[1].contains { other in one.decodeStart < other.decodeEnd && other.decodeStart < one.decodeEnd }
        }
        #expect(overlapping, "no batch of one load was decoded while one of the other was: \(batches)")

        // Each notification once, as two loads one after the other store them.
        let reference = try TestDatabase.makeSchema("overlapref")
        for file in [first, second] {
            try load(file.path, into: reference)
        }
        let sql = "SELECT notification_uuid::text, md5(payload::text) FROM notifications ORDER BY 1"
        let concurrent = try schema.connect().execute(sql).rows
        let sequential = try reference.connect().execute(sql).rows
        #expect(concurrent.count == 4 * CrashTests.notificationsPerFile)
        #expect(concurrent == sequential)
        // The two runs' counts add up: of their 827 and 828 notifications (three lines of each are not one), what
        // one stored the other found stored.
        let counts = try gate.execute("SELECT sum(loaded)::text, sum(duplicates)::text FROM load_runs").rows
        #expect(counts == [["1100", String(827 + 828 - 1100)]])
        // And the copies kept by signed date are those of the two loads one after the other.
        let copies = "SELECT notification_uuid::text, signed_date::text FROM notification_copies ORDER BY 1, 2"
        let concurrentCopies = try schema.connect().execute(copies).rows
        #expect(concurrentCopies.count == 827 + 828 - 1100)
        #expect(concurrentCopies == (try reference.connect().execute(copies).rows))
    }

    @Test func analysisLeavesAFileStillBeingLoadedForLater() throws {
        let exports = try CrashTests.exports.get()
        let schema = try TestDatabase.makeSchema("liveload")
        let connection = try schema.migrated()
        try load(try exportPath(0), into: schema)
        #expect(try analyze(schema).status == 0)

        // A load that has committed two batches of its file and waits for the rest of it.
        let fifo = exports.directory.appendingPathComponent("live-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // Read-write, so that opening does not wait for the reader, and the reader's open does not wait for a writer.
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        var writerOpen = true
        defer { if writerOpen { close(writer) } }
        let lines = try Self.export(1).split(separator: 0x0A, omittingEmptySubsequences: false)
        func send(_ part: ArraySlice<Data.SubSequence>) {
            var bytes = Data()
            for line in part {
                bytes.append(contentsOf: line)
                bytes.append(0x0A)
            }
            let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            #expect(written == bytes.count)
        }
        let loading = try ChurnCommand.start(
            try loadArguments(fifo, into: schema) + ["--workers", "1", "--batch-size", "50"]
        )
        // The loader hands a decoded batch over once it has read the next: of 150 lines, the first two batches are
        // committed (99 notifications and the line that is not one) while the third waits for the fourth's input.
        send(lines.prefix(150))
        let committed = try Self.waitUntil {
            try connection.execute(
                "SELECT count(*) FROM notifications n JOIN source_files f ON f.id = n.source_file_id WHERE f.path = $1",
                [fifo]
            ).scalar == "99" || !loading.isRunning
        }
        #expect(committed && loading.isRunning)
        let fileID = try #require(
            try connection.execute("SELECT id::text FROM source_files WHERE path = $1", [fifo]).scalar
        )

        let meanwhile = try analyze(schema)
        #expect(meanwhile.stdout.contains("episodes are current"), "\(meanwhile.stdout)")
        #expect(try analyzedCount(of: fileID, on: connection) == "0")

        send(lines.dropFirst(150).dropLast())
        close(writer)
        writerOpen = false
        let loaded = loading.wait()
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(try analyze(schema).stdout.contains("1 new file(s)"))
        // Every notification of the file counts: the episodes equal a full rebuild's.
        let incremental = try episodes(connection)
        #expect(incremental.count == 200)
        #expect(try analyze(schema, full: true).status == 0)
        #expect(try episodes(connection) == incremental)
    }

    @Test func theRowsOfAKilledLoadAreAnalyzedOnceItsRunIsInterrupted() throws {
        let schema = try TestDatabase.makeSchema("killedload")
        let connection = try schema.migrated()
        try load(try exportPath(0), into: schema)
        #expect(try analyze(schema).status == 0)

        // Killed once its second batch of 100 records is committed: 199 notifications and the line that is not one.
        let killed = try ChurnCommand.run(
            try loadArguments(try exportPath(1), into: schema) + ["--batch-size", "100"],
            environment: ["CHURN_FAULT": "load.batch-committed:2"]
        )
        #expect(killed.signal == SIGKILL, "\(killed.stderr)")
        let runID = try #require(try connection.execute("SELECT max(id) FROM load_runs").scalar.flatMap { Int64($0) })
        let fileID = try #require(try connection.execute("SELECT max(id)::text FROM source_files").scalar)
        #expect(
            try connection.execute(
                "SELECT count(*) FROM notifications WHERE source_file_id = $1::bigint", [fileID]
            ).scalar == "199"
        )
        // The file never completed: no SHA-256, and its quarantined line waits for a load that completes it.
        #expect(try connection.execute("SELECT sha256 FROM source_files WHERE id = $1::bigint", [fileID]).scalar == "")
        #expect(try connection.execute("SELECT count(*) FROM quarantine").scalar == "1")

        // Once the killed process's session is gone, the analysis marks its run interrupted and takes its rows.
        let locks = try LoadRunLocks(connection: connection)
        #expect(try Self.waitUntil { try !locks.isHeld(runID: runID) })
        let status = "SELECT status FROM load_runs WHERE id = $1::bigint"
        #expect(try connection.execute(status, [String(runID)]).scalar == "running")
        #expect(try analyze(schema).stdout.contains("1 new file(s)"))
        #expect(try connection.execute(status, [String(runID)]).scalar == "interrupted")
        #expect(try analyzedCount(of: fileID, on: connection) == "1")
        let incremental = try episodes(connection)
        #expect(try analyze(schema, full: true).status == 0)
        #expect(try episodes(connection) == incremental)

        // Loading the file again stores the rest. What the killed run stored is the file's own, not resent: the
        // file's counts are those of a load that was never killed (275 stored, the one resend a duplicate).
        let again = try ChurnCommand.run(try loadArguments(try exportPath(1), into: schema))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout.contains("76 new, 199 from an unfinished load of this file, 1 already stored"),
            "\(again.stdout)")
        let files = "SELECT loaded::text, duplicates::text FROM source_files WHERE sha256 <> '' ORDER BY id"
        #expect(try connection.execute(files).rows == [["275", "0"], ["275", "1"]])
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "550")
        #expect(try connection.execute("SELECT count(*) FROM quarantine").scalar == "2")
        #expect(try analyze(schema).stdout.contains("1 new file(s)"))
        let all = try episodes(connection)
        #expect(all.count == 200)
        #expect(try analyze(schema, full: true).status == 0)
        #expect(try episodes(connection) == all)
    }

    @Test func aQueryWaitingForAnotherAnalysisSaysWhichSessionItWaitsFor() throws {
        let schema = try TestDatabase.makeSchema("analysiswait")
        try load(try exportPath(0), into: schema)
        // A session holds the analysis lock, as a nightly run's analysis does while a query comes.
        let gate = try schema.connect()
        let analysisLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.analyze, on: gate)
        #expect(try gate.tryAdvisoryLock(analysisLock))
        let pid = try #require(try gate.execute("SELECT pg_backend_pid()").scalar)
        let query = try ChurnCommand.start(["query", "recovery-curve", "--database-url", schema.url])
        let waited = try Self.waitUntil { try Self.waiters(for: analysisLock, on: gate) == 1 || !query.isRunning }
        try gate.advisoryUnlock(analysisLock)
        let answer = query.wait()
        #expect(waited, "the query did not wait for the analysis lock: \(answer.stderr)")
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stderr.contains("waiting for another analysis to finish"), "\(answer.stderr)")
        #expect(answer.stderr.contains("PostgreSQL session \(pid) (churn)"), "\(answer.stderr)")
        // Once the lock is free it analysed the load and answered.
        #expect(answer.stdout.contains("day"), "\(answer.stdout)")
    }

    // MARK: - Helpers

    /// The bytes of the crash tests' export file `index`.
    static func export(_ index: Int) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: try exportPath(index)))
    }

    static func exportPath(_ index: Int) throws -> String {
        try CrashTests.exports.get().exports.appendingPathComponent(String(format: "export-%02d.jsonl", index)).path
    }

    private func exportPath(_ index: Int) throws -> String {
        try Self.exportPath(index)
    }

    private func loadArguments(_ path: String, into schema: TestDatabase.Schema) throws -> [String] {
        [
            "load", "--database-url", schema.url, "--trust-root", try CrashTests.exports.get().trustRoot.path,
            "--max-rejects", "100", path,
        ]
    }

    private func load(_ path: String, into schema: TestDatabase.Schema) throws {
        let result = try ChurnCommand.run(try loadArguments(path, into: schema))
        #expect(result.status == 0, "\(result.stderr)")
    }

    private func analyze(_ schema: TestDatabase.Schema, full: Bool = false) throws -> ChurnCommand.Result {
        let result = try ChurnCommand.run(["analyze", "--database-url", schema.url] + (full ? ["--full"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    private func analyzedCount(of fileID: String, on connection: PGConnection) throws -> String? {
        try connection.execute("SELECT count(*) FROM analyzed_files WHERE source_file_id = $1::bigint", [fileID]).scalar
    }

    private func episodes(_ connection: PGConnection) throws -> [[String?]] {
        try connection.execute("SELECT * FROM billing_episodes ORDER BY environment, original_transaction_id, sequence")
            .rows
    }

    /// Polls `condition` every 20 ms for up to two minutes.
    /// - Returns: whether it became true.
    static func waitUntil(_ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// How many sessions wait for the advisory lock `key` (of this database).
    static func waiters(for key: Int64, on connection: PGConnection) throws -> Int {
        try waitingSessions(for: key, on: connection).count
    }

    /// The server processes of the sessions that wait for the advisory lock `key` (of this database).
    static func waitingSessions(for key: Int64, on connection: PGConnection) throws -> [String] {
        try connection.execute(
            """
            SELECT pid::text FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND classid = $1::oid AND objid = $2::oid AND objsubid = 1
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """,
            [String(UInt32(truncatingIfNeeded: key >> 32)), String(UInt32(truncatingIfNeeded: key))]
        ).rows.compactMap { $0[0] }
    }

    /// A batch a load logged as written: when its decoding started and ended.
    struct BatchTimes: CustomStringConvertible {
        var decodeStart: Date
        var decodeEnd: Date

        var description: String { "\(decodeStart.timeIntervalSince1970)–\(decodeEnd.timeIntervalSince1970)" }
    }

    /// The `batch written` records of a `--log-format json` log.
    static func batchesWritten(in log: String) throws -> [BatchTimes] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var batches: [BatchTimes] = []
        for line in log.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["message"] as? String == "batch written" else { continue }
            let start = try #require((object["batch.decode_start"] as? String).flatMap(formatter.date(from:)))
            let end = try #require((object["batch.decode_end"] as? String).flatMap(formatter.date(from:)))
            #expect(start <= end)
            batches.append(BatchTimes(decodeStart: start, decodeEnd: end))
        }
        return batches
    }
}
