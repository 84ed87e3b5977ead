import Foundation
import PGClient
import Testing
import TestSupport

/// Two loads of overlapping files at once end with each notification stored exactly once.
@Suite struct ConcurrentLoadTests {
    @Test func overlappingLoadsAtOnceStoreEachNotificationOnce() throws {
        let exports = try CrashTests.exports.get()
        let directory = exports.directory.appendingPathComponent("overlap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func contents(_ index: Int) throws -> Data {
            try Data(contentsOf: exports.exports.appendingPathComponent(String(format: "export-%02d.jsonl", index)))
        }
        let first = directory.appendingPathComponent("first.jsonl")
        let second = directory.appendingPathComponent("second.jsonl")
        try (try contents(0) + contents(1) + contents(2)).write(to: first)
        try (try contents(2) + contents(1) + contents(3)).write(to: second)

        let schema = try TestDatabase.makeSchema("overlap")
        _ = try schema.migrated()
        let results = UnsafeResults()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.set(
                index,
                try? ChurnCommand.run(
                    [
                        "load", "--database-url", schema.url, "--trust-root", exports.trustRoot.path, "--max-rejects", "100",
                        (index == 0 ? first : second).path,
                    ]
                )
            )
        }
        #expect(results.values.map { $0?.status } == [0, 0], "\(results.values.map { $0?.stderr ?? "" })")

        let reference = try TestDatabase.makeSchema("overlapref")
        for file in [first, second] {
            let run = try ChurnCommand.run(
                ["load", "--database-url", reference.url, "--trust-root", exports.trustRoot.path, "--max-rejects", "100", file.path]
            )
            #expect(run.status == 0)
        }
        let sql = "SELECT notification_uuid::text, md5(payload::text) FROM notifications ORDER BY 1"
        let concurrent = try schema.connect().execute(sql).rows
        let sequential = try reference.connect().execute(sql).rows
        #expect(concurrent.count == sequential.count)
        #expect(concurrent == sequential)
        let duplicates = try schema.connect().execute(
            "SELECT count(*) FROM (SELECT notification_uuid FROM notifications GROUP BY 1 HAVING count(*) > 1) d"
        ).scalar
        #expect(duplicates == "0")
    }
}
