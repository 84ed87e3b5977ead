import EmbeddedPostgres
import Foundation
import Logging
import PGClient
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database stops in the middle of a load: `churn` exits (rather than hanging) with its "database unreachable" code and a
/// clear message; once the server is back, one more run gives exactly what a clean run gives.
@Suite(.serialized) struct DatabaseOutageTests {
    @Test func aServerStoppedMidLoadGivesExit69AndARerunEqualsACleanRun() throws {
        let reference = try CrashTests.reference.get()
        let exports = try CrashTests.exports.get()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("churn-outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.path)
        let cluster = EmbeddedCluster(home: home, database: "outage", serverSettings: ["fsync": "off"])
        try cluster.start(logger: .test)
        defer {
            _ = try? cluster.stop(immediate: true)
            try? FileManager.default.removeItem(at: home)
        }
        let arguments = [
            "nightly", "--database-url", cluster.url, "--trust-root", exports.trustRoot.path, "--max-rejects", "100",
            "--workers", "1", "--reports-root", home.appendingPathComponent("reports").path, exports.exports.path,
        ]

        let process = Process()
        process.executableURL = ChurnCommand.executable
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Stop the server once the load is under way: its run is recorded and not finished.
        let watcher = try PGConnection(url: cluster.url)
        var loading = false
        for _ in 0..<600 where !loading {
            loading =
                (try? watcher.execute("SELECT 1 FROM load_runs WHERE status = 'running'").rows.isEmpty == false)
                ?? false
            if !loading { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(loading, "the load started before the server stopped")
        try cluster.stop()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 69, "\(message)")
        #expect(message.contains("PostgreSQL"), "\(message)")
        #expect(!message.contains("Fatal error") && !message.contains("Stack dump"), "\(message)")

        // While the server is down, a new run says so at once.
        let down = try ChurnCommand.run(Array(arguments.dropLast()) + [exports.exports.path])
        #expect(down.status == 69)
        #expect(down.stderr.contains(home.appendingPathComponent("run").path), "names the server: \(down.stderr)")

        try cluster.start(logger: .test)
        let again = try ChurnCommand.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        let after = try CrashTests().snapshot(TestDatabase.Schema(name: "public", url: cluster.url))
        for (table, rows) in reference {
            #expect(after[table] == rows, "\(table) differs after the outage")
        }
    }
}
