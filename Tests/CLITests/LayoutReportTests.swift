import Foundation
import PGClient
import TestSupport
import Testing

/// The same export loaded into a schema of each layout, `churn migrate --layout plain` and `--layout partitioned`,
/// gives byte-identical reports: the layout decides where rows are kept, never what they say.
@Suite struct LayoutReportTests {
    @Test func bothLayoutsGiveByteIdenticalReports() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            [
                "simulate", "--subscribers", "300", "--seed", "15", "--months", "8", "--grace", "mixed",
                "--missing-expiry-rate", "0.1", "--late-failure-notice-rate", "0.1", "--out", export.path,
            ]
        )
        #expect(simulate.status == 0, "\(simulate.stderr)")
        // Two files, loaded and analyzed one after the other: the second analysis rebuilds the subscriptions the
        // second file touches (subscriptions run across both files).
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 1000)
        let parts = [lines[..<(lines.count / 2)], lines[(lines.count / 2)...]].enumerated().map { index, part in
            (directory.appendingPathComponent("part\(index + 1).jsonl"), part.joined(separator: "\n") + "\n")
        }
        for (url, text) in parts { try Data(text.utf8).write(to: url) }
        let root = directory.appendingPathComponent("export.root.der").path

        var reports: [String: [String: Data]] = [:]
        var episodes: [String: [[String?]]] = [:]
        for (layout, options, expected) in [
            ("plain", ["--layout", "plain"], "plain layout"),
            ("partitioned", ["--layout", "partitioned", "--partitions", "4"], "partitioned layout (4 hash partitions"),
        ] {
            let schema = try TestDatabase.makeSchema("layout\(layout)")
            let migrate = try ChurnCommand.run(["migrate", "--database-url", schema.url] + options)
            #expect(migrate.status == 0, "\(migrate.stderr)")
            #expect(migrate.stdout.contains(expected), "\(migrate.stdout)")
            let connection = try schema.connect()
            let partitioned = try connection.partitionedTables()
            #expect(
                partitioned
                    == (layout == "plain"
                        ? []
                        : ["billing_episodes", "notifications", "subscription_analysis", "subscription_renewals"].map {
                            "\($0) hash original_transaction_id 4"
                        }))
            for (url, _) in parts {
                let load = try ChurnCommand.run(
                    ["load", "--database-url", schema.url, "--trust-root", root, "--quiet", url.path])
                #expect(load.status == 0, "\(load.stderr)")
                let analyze = try ChurnCommand.run(["analyze", "--database-url", schema.url])
                #expect(analyze.status == 0, "\(analyze.stderr)")
            }
            // The database's random identity, which headline.json records, is the one thing that differs.
            try connection.execute("UPDATE database_identity SET id = '00000000-0000-4000-8000-0000000000aa'")
            let out = directory.appendingPathComponent("report-\(layout)")
            let report = try ChurnCommand.run(
                [
                    "report", "--database-url", schema.url, "--out", out.path, "--reports-root",
                    directory.appendingPathComponent("reports-\(layout)").path,
                ]
            )
            #expect(report.status == 0, "\(report.stderr)")
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                files[name] = try Data(contentsOf: out.appendingPathComponent(name))
            }
            reports[layout] = files
            episodes[layout] = try connection.execute("SELECT e::text FROM episodes e ORDER BY 1").rows
            // The export's quirks are there: notifications without a subscription, and episodes.
            #expect(
                try connection.execute("SELECT count(*) > 0 FROM notifications WHERE original_transaction_id = ''")
                    .scalar == "t")
            #expect((episodes[layout]?.count ?? 0) > 50)
        }
        let plain = try #require(reports["plain"])
        let partitioned = try #require(reports["partitioned"])
        #expect(plain.count >= 14)
        #expect(plain.keys.sorted() == partitioned.keys.sorted())
        for (name, contents) in plain {
            #expect(partitioned[name] == contents, "\(name) differs between the layouts")
        }
        #expect(episodes["plain"] == episodes["partitioned"])
    }
}
