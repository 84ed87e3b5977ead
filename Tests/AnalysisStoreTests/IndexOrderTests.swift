import Analysis
import Foundation
import Ingest
import PGClient
import Simulator
import TestSupport
import Testing

@testable import AnalysisStore

/// A read of every notification goes along the subscription index when the table fits in the server's cache
/// (`effective_cache_size`), and through the planner's sort when it does not: both give the same events in the same
/// order, and the transaction's `enable_sort` is as it was once the read is over.
@Suite struct IndexOrderTests {
    @Test func bothWaysOfReadingEveryNotificationGiveTheSameEvents() async throws {
        let history = RandomHistory(seed: 5)
        let schema = try TestDatabase.makeSchema("order")
        let writer = try schema.migrated()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in history.files.indices {
            let path = directory.appendingPathComponent("export-\(index).jsonl").path
            try Data(try history.lines(ofFile: index).map { $0 + "\n" }.joined().utf8)
                .write(to: URL(fileURLWithPath: path))
            let options = LoadOptions(policy: AcceptancePolicy(verifier: nil), workers: 1, command: "test")
            _ = try await Loader(connection: writer, options: options, logger: .test).load([path])
        }

        let middle = history.options.start + (history.options.end - history.options.start) / 2
        let connection = try schema.connect()
        let reader = NotificationEventReader(connection: connection)
        func events(_ scope: NotificationEventReader.Scope) throws -> [NotificationEvent] {
            var events: [NotificationEvent] = []
            try reader.read(scope) { events.append($0) }
            return events
        }
        func sortSetting() throws -> String? {
            try connection.execute("SELECT current_setting('enable_sort')").scalar
        }

        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        #expect(try reader.readsAlongIndex(), "a test's table fits in any cache")
        let alongIndex = try events(.all(asOf: nil))
        #expect(try sortSetting() == "on", "the read sets the server's sorts back on")
        let alongIndexAsOf = try events(.all(asOf: middle))

        // A cache smaller than the table: the server sorts.
        try connection.execute("SET LOCAL effective_cache_size = '8kB'")
        #expect(try !reader.readsAlongIndex())
        let sorted = try events(.all(asOf: nil))
        let sortedAsOf = try events(.all(asOf: middle))
        try connection.execute("ROLLBACK")

        #expect(alongIndex.count == Set(history.files.joined().map(\.notificationUUID)).count)
        #expect(alongIndex.count > 100)
        #expect(alongIndex == sorted)
        #expect(alongIndexAsOf == sortedAsOf)
        #expect(alongIndexAsOf.count < alongIndex.count, "the as-of date leaves some notifications out")

        // A session that turned sorts off itself keeps them off.
        try connection.execute("BEGIN")
        try connection.execute("SET LOCAL enable_sort = off")
        _ = try events(.all(asOf: nil))
        #expect(try sortSetting() == "off")
        try connection.execute("ROLLBACK")
    }
}
