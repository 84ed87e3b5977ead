import Foundation
import PGClient
import TestSupport
import Testing

/// Load order changes nothing: an export loaded as it is, and the same lines reversed and split into files loaded
/// in another order, give byte-identical report files as of every time (copies included: the export resends some
/// notifications).
@Suite struct LoadOrderTests {
    @Test func reversedAndSplitExportsGiveByteIdenticalReportsAtEveryAsOf() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            [
                "simulate", "--subscribers", "200", "--seed", "23", "--months", "6", "--grace", "mixed",
                "--duplicate-rate", "0.1", "--out", export.path,
            ]
        )
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let root = directory.appendingPathComponent("export.root.der").path
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n")
        let reversed = Array(lines.reversed())
        let third = reversed.count / 3
        let parts = [reversed[..<third], reversed[third..<(2 * third)], reversed[(2 * third)...]]
        var split: [URL] = []
        for (index, part) in parts.enumerated() {
            let url = directory.appendingPathComponent("part\(index + 1).jsonl")
            try Data((part.joined(separator: "\n") + "\n").utf8).write(to: url)
            split.append(url)
        }
        // Before the data's end, mid-way, near the start, and the default (the latest notification).
        let asOfs: [String?] = ["2025-02-10", "2025-04-15T12:00:00Z", "2025-06-20", nil]
        var reports: [[String: Data]] = []
        for (label, files) in [("asis", [export]), ("split", [split[2], split[0], split[1]])] {
            let schema = try TestDatabase.makeSchema("order\(label)")
            for file in files {
                let load = try ChurnCommand.run(
                    ["load", "--database-url", schema.url, "--trust-root", root, "--quiet", file.path]
                )
                #expect(load.status == 0, "\(load.stderr)")
            }
            #expect(try ChurnCommand.run(["analyze", "--database-url", schema.url]).status == 0)
            // headline.json records the database's random identity; everything else must match.
            try schema.connect().execute("UPDATE database_identity SET id = '00000000-0000-4000-8000-0000000000bb'")
            var files: [String: Data] = [:]
            for (index, asOf) in asOfs.enumerated() {
                let out = directory.appendingPathComponent("\(label)-\(index)")
                let report = try ChurnCommand.run(
                    [
                        "report", "--database-url", schema.url, "--out", out.path, "--reports-root",
                        directory.appendingPathComponent("reports-\(label)").path,
                    ]
                        + (asOf.map { ["--as-of", $0] } ?? [])
                )
                #expect(report.status == 0, "\(report.stderr)")
                for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                    files["\(index)/\(name)"] = try Data(contentsOf: out.appendingPathComponent(name))
                }
            }
            reports.append(files)
        }
        #expect(reports[0].count >= asOfs.count * 10)
        for name in reports[0].keys.sorted() {
            #expect(reports[0][name] == reports[1][name], "\(name) differs")
        }
        #expect(Set(reports[0].keys) == Set(reports[1].keys))
        // The copies are there, and counted by their signed date.
        let counts = try (0..<asOfs.count).map { index in
            let table = String(decoding: try #require(reports[0]["\(index)/data_quality.csv"]), as: UTF8.self)
            let line = try #require(table.split(separator: "\n").first { $0.hasPrefix("duplicates_skipped,") })
            return Int(line.split(separator: ",")[1]) ?? -1
        }
        #expect(counts[0] > 0 && counts[0] < counts[1] && counts[1] < counts[2] && counts[2] <= counts[3], "\(counts)")
    }
}
