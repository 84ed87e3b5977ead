import EmbeddedPostgres
import Foundation
import Logging
import PGClient
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
        for (name, value) in EmbeddedCluster.defaultSettings.merging(["fsync": "off"], uniquingKeysWith: { $1 }) {
            let shown = try connection.execute("SELECT current_setting($1)", [name]).scalar
            #expect(shown == value, "\(name)")
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
