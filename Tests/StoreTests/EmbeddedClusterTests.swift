import Foundation
import Logging
import PGClient
import Store
import Synchronization
import TestSupport
import Testing

/// The embedded cluster's life cycle, with the real `initdb` and `pg_ctl`, in a home of its own.
@Suite struct EmbeddedClusterTests {
    /// A new directory under the temporary directory, whose name holds a space and a quote, as a user's home may.
    static func makeHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory
            .appendingPathComponent("churn cluster's \(UUID().uuidString.prefix(6))", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.path)
        return home
    }

    @Test func aHomeNeverCreatedIsNotInitializedAndHasNothingToStop() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("churn never \(UUID().uuidString)")
        let cluster = EmbeddedCluster(home: home)
        #expect(try cluster.status() == .notInitialized)
        #expect(try cluster.stop() == false)
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test func startsStopsAndStartsAgainKeepingItsData() throws {
        let cluster = EmbeddedCluster(home: try Self.makeHome(), serverSettings: ["fsync": "off"])
        defer {
            _ = try? cluster.stop(immediate: true)
            try? FileManager.default.removeItem(at: cluster.home)
        }
        #expect(try cluster.status() == .notInitialized)

        // Two callers at once: one creates and starts the cluster, the other waits on the lock file and finds it
        // running.
        let starts = Mutex<[Result<Bool, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let result = Result { try cluster.start(logger: .test) }
            starts.withLock { $0.append(result) }
        }
        let started = try starts.withLock { try $0.map { try $0.get() } }
        #expect(started.sorted { !$0 && $1 } == [false, true])
        #expect(try cluster.status() == .running)

        let connection = try PGConnection(url: cluster.url)
        // The server's own defaults, and the caller's settings beside them.
        let memory = ProcessInfo.processInfo.physicalMemory
        #expect(EmbeddedCluster.defaultSettings(physicalMemory: 8 << 30)["effective_cache_size"] == "4096MB")
        let settings = EmbeddedCluster.defaultSettings(physicalMemory: memory).merging(["fsync": "off"]) { $1 }
        for (name, value) in settings {
            // A size shows in the largest unit that divides it (4096MB as 4GB): compared in bytes.
            let same = try connection.execute(
                """
                SELECT CASE WHEN $1 = 'effective_cache_size'
                            THEN pg_size_bytes(current_setting($1)) = pg_size_bytes($2)
                            ELSE current_setting($1) = $2 END
                """,
                [name, value]
            ).scalar
            #expect(same == "t", "\(name) = \(value)")
        }
        try connection.execute("CREATE TABLE kept (v text)")
        try connection.execute("INSERT INTO kept VALUES ('before the first stop')")
        #expect(try PGConnection(url: cluster.uri).execute("SELECT current_database()").scalar == cluster.database)
        #expect(try cluster.start(logger: .test) == false)

        #expect(try cluster.stop() == true)
        #expect(try cluster.status() == .stopped)
        #expect(try cluster.stop() == false)
        #expect(throws: PGError.self) { try connection.execute("SELECT 1") }

        #expect(try cluster.start(logger: .test) == true)
        #expect(try cluster.status() == .running)
        try PGConnection(url: cluster.url).execute("INSERT INTO kept VALUES ('before the immediate stop')")

        // An immediate stop writes no checkpoint: the next start replays the write-ahead log.
        #expect(try cluster.stop(immediate: true) == true)
        #expect(try cluster.start(logger: .test) == true)
        let kept = try PGConnection(url: cluster.url).execute("SELECT v FROM kept ORDER BY v").rows
        #expect(kept == [["before the first stop"], ["before the immediate stop"]])
    }
}
