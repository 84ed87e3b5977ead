import Foundation
import PGClient
import TestSupport
import Testing

/// `churn load` of an export loaded before: nothing new, every line recognised as stored and not verified again, and
/// the summary says so; the same bytes again are only hashed; a filter that refuses the stored lines still refuses
/// them.
@Suite struct SecondLoadTests {
    @Test func theSecondLoadSaysItsLinesWereNotCheckedAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("second-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            ["simulate", "--subscribers", "20", "--seed", "31", "--months", "4", "--out", export.path]
        )
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let root = directory.appendingPathComponent("export.root.der").path
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n").count
        let schema = try TestDatabase.makeSchema("secondload")
        let load = ["load", "--database-url", schema.url, "--trust-root", root, export.path]

        let first = try ChurnCommand.run(load)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains("signatures: verified for the \(lines) notification(s) accepted"), "\(first.stdout)"
        )

        let second = try ChurnCommand.run(load)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stdout.contains("\(lines) inputs, 0 new, \(lines) already stored, 0 rejected"),
            "\(second.stdout)")
        #expect(
            second.stdout.contains(
                "signatures: verified for the \(lines) notification(s) accepted (\(lines) byte-identical to stored "
                    + "notifications verified before: not checked again)"),
            "\(second.stdout)")

        // The same bytes, stored whole by a run that accepted as this one does and refused nothing: only hashed, with
        // the same summary. A run that checks otherwise (no signatures) reads the lines.
        let third = try ChurnCommand.run(load + ["--log-level", "info"])
        let withoutRun = { (text: String) in text.replacingOccurrences(of: "load run 3", with: "load run 2") }
        #expect(third.status == 0, "\(third.stderr)")
        #expect(
            withoutRun(third.stdout).split(separator: "\n").map { $0.replacing(/in [0-9.]+ s \([0-9]+\/s\)/, with: "") }
                == second.stdout.split(separator: "\n").map { $0.replacing(/in [0-9.]+ s \([0-9]+\/s\)/, with: "") },
            "\(third.stdout)")
        #expect(third.stderr.contains("file stored whole before: not read again"), "\(third.stderr)")
        let unchecked = try ChurnCommand.run(
            ["load", "--database-url", schema.url, "--no-verify", "--log-level", "info", export.path])
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
        #expect(unchecked.stdout.contains("\(lines) inputs, 0 new, \(lines) already stored, 0 rejected"))
        #expect(!unchecked.stderr.contains("not read again"), "\(unchecked.stderr)")
        // One byte more (a blank line at the end): other bytes, read line by line, the same lines found stored.
        let longer = directory.appendingPathComponent("longer.jsonl")
        try (try Data(contentsOf: export) + Data("\n".utf8)).write(to: longer)
        let grown = try ChurnCommand.run(
            ["load", "--database-url", schema.url, "--trust-root", root, "--log-level", "info", longer.path])
        #expect(grown.status == 0 && !grown.stderr.contains("not read again"), "\(grown.stderr)")
        #expect(grown.stdout.contains("0 new"), "\(grown.stdout)")
        let rows = try schema.connect().execute(
            "SELECT count(*) FROM source_files WHERE sha256 <> '' AND records = \(lines) AND rejected = 0"
        ).scalar
        #expect(rows == "5", "each load of the file, and of the longer one, has its row")

        // Sandbox only: the stored Production lines are decoded and refused as they would be in a new database.
        let sandbox = try ChurnCommand.run(load + ["--environment", "Sandbox", "--max-rejects", "100000"])
        let fresh = try TestDatabase.makeSchema("secondloadfresh")
        let reference = try ChurnCommand.run(
            [
                "load", "--database-url", fresh.url, "--trust-root", root, "--environment", "Sandbox", "--max-rejects",
                "100000", export.path,
            ]
        )
        #expect(sandbox.status == 0 && reference.status == 0, "\(sandbox.stderr)\(reference.stderr)")
        let reasons = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("rejected by reason:") } }
        #expect(reasons(sandbox.stdout) != nil)
        #expect(reasons(sandbox.stdout) == reasons(reference.stdout), "\(sandbox.stdout)\n\(reference.stdout)")
    }
}
