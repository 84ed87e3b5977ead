import Foundation
import PGClient
import TestSupport
import Testing

/// `churn quarantine list` and `clear`: the refused inputs of a load, listed with file, line and reason, and cleared
/// by a selection, after which reports no longer count them.
@Suite struct QuarantineCommandTests {
    @Test func listsAndClearsRefusedInputs() throws {
        let simulated = try SimulatedExport("quarantine", subscribers: 20, seed: 4)
        defer { simulated.remove() }
        let (directory, export) = (simulated.directory, simulated.export)
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n").count
        // Two lines that are not JSON, the second cut short as by a writer still at work.
        try simulated.append("not json at all\n{\"signedPayload\": \"ab")
        let schema = try TestDatabase.makeSchema("quarantinecli")
        let database = ["--database-url", schema.url]
        let trust = ["--trust-root", simulated.trustRoot.path]
        let load = try ChurnCommand.run(["load"] + database + trust + [export.path])
        // Refused inputs: the load exits 2, every good line stored.
        #expect(load.status == 2, "\(load.stderr)")

        let list = try ChurnCommand.run(["quarantine", "list", "--format", "csv"] + database)
        #expect(list.status == 0, "\(list.stderr)")
        let records = list.stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(
            records.first == ["id", "run", "file", "line", "reason", "detail", "quarantined_at", "resolved_by_run"])
        #expect(records.dropFirst().map { String($0[3]) } == [String(lines + 1), String(lines + 2)])
        #expect(records.dropFirst().allSatisfy { $0[2] == Substring(export.path) && $0[4] == "not_json" })

        // Nothing is cleared without a selection; a reason no input has is refused with the reasons there are, and
        // a selection whose values each exist but not together clears nothing.
        let bare = try ChurnCommand.run(["quarantine", "clear"] + database)
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("say which inputs to clear"), "\(bare.stderr)")
        let unknown = try ChurnCommand.run(["quarantine", "clear", "--reason", "bad_signature"] + database)
        #expect(unknown.status == 64, "\(unknown.stdout)\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("--reason 'bad_signature' matches no quarantined input")
                && unknown.stderr.contains("not_json (2)"), "\(unknown.stderr)")
        let noID = try ChurnCommand.run(["quarantine", "clear", "--id", "999999"] + database)
        #expect(noID.status == 64 && noID.stderr.contains("--id '999999' matches no quarantined input"))

        let first = try #require(records.dropFirst().first.map { String($0[0]) })
        let one = try ChurnCommand.run(["quarantine", "clear", "--id", first] + database)
        #expect(one.stdout.contains("cleared 1 quarantined input(s)"), "\(one.stdout)\(one.stderr)")
        let reports = directory.appendingPathComponent("reports")
        let report = try ChurnCommand.run(["report", "--out", reports.path] + database)
        #expect(report.status == 0, "\(report.stderr)")
        let quality = try String(contentsOf: reports.appendingPathComponent("data_quality.csv"), encoding: .utf8)
        #expect(quality.contains("rejected_not_json,1\n"), "\(quality)")

        let rest = try ChurnCommand.run(
            ["quarantine", "clear", "--reason", "not_json", "--file", export.path] + database)
        #expect(rest.stdout.contains("cleared 1 quarantined input(s)"), "\(rest.stdout)")
        let after = try ChurnCommand.run(["report", "--out", reports.path] + database)
        #expect(after.status == 0, "\(after.stderr)")
        let cleared = try String(contentsOf: reports.appendingPathComponent("data_quality.csv"), encoding: .utf8)
        #expect(!cleared.contains("rejected_"), "\(cleared)")
        let empty = try ChurnCommand.run(["quarantine", "list"] + database)
        #expect(empty.stdout.contains("no quarantined input counts"), "\(empty.stdout)")
    }

    /// A load stores a file's path as it was named; the quarantine's `--file` also takes that file by another
    /// spelling of its path (absolute, `./`), and refuses a path no input has, naming the paths there are.
    @Test func aFileIsSelectedByAnySpellingOfItsPath() throws {
        let simulated = try SimulatedExport("quarantine-path", subscribers: 5, seed: 9)
        defer { simulated.remove() }
        let (directory, export) = (simulated.directory, simulated.export)
        try simulated.append("not json\nnor this\n")
        let schema = try TestDatabase.makeSchema("quarantinepath")
        let database = ["--database-url", schema.url]
        // Loaded from its directory by its bare name, which is what the quarantine stores.
        let name = export.lastPathComponent
        let load = try ChurnCommand.run(
            ["load", "--trust-root", simulated.trustRoot.path, name] + database, in: directory)
        #expect(load.status == 2, "\(load.stderr)")

        let listed = try ChurnCommand.run(
            ["quarantine", "list", "--format", "csv", "--file", "./" + name] + database, in: directory)
        #expect(
            listed.status == 0 && listed.stdout.split(separator: "\n").count == 3, "\(listed.stdout)\(listed.stderr)")

        let elsewhere = try ChurnCommand.run(
            ["quarantine", "clear", "--file", directory.appendingPathComponent("other.jsonl").path] + database)
        #expect(elsewhere.status == 64, "\(elsewhere.stdout)")
        #expect(
            elsewhere.stderr.contains("matches no quarantined input")
                && elsewhere.stderr.contains("\(name) (2)"), "\(elsewhere.stderr)")

        // The absolute path, from the directory the load ran in, clears both inputs.
        let cleared = try ChurnCommand.run(
            ["quarantine", "clear", "--file", export.path] + database, in: directory)
        #expect(cleared.status == 0 && cleared.stdout.contains("cleared 2 quarantined input(s)"), "\(cleared.stdout)")
    }

    /// The aligned table cuts a long detail (a certificate chain's runs to hundreds of characters), so one row does not
    /// pad every other to its width; CSV and JSON keep it whole.
    @Test func aLongDetailIsCutInTheTableOnly() throws {
        let simulated = try SimulatedExport("quarantine-wide", subscribers: 5, seed: 10)
        defer { simulated.remove() }
        try simulated.append("not json\nnor this\n")
        let schema = try TestDatabase.makeSchema("quarantinewide")
        let database = ["--database-url", schema.url]
        let load = try ChurnCommand.run(["load", "--no-verify", simulated.export.path] + database)
        #expect(load.status == 2, "\(load.stderr)")
        let long = String(repeating: "certificate ", count: 50)
        try schema.connect().execute(
            "UPDATE quarantine SET detail = $1 WHERE line = (SELECT min(line) FROM quarantine)", [long])

        let table = try ChurnCommand.run(["quarantine", "list"] + database)
        #expect(table.status == 0, "\(table.stderr)")
        let widest = table.stdout.split(separator: "\n").map(\.count).max() ?? 0
        // Every row is as wide as its widest cells: the detail at most 100 characters, not the planted 600.
        #expect(widest < long.count, "\(table.stdout)")
        #expect(!table.stdout.contains(long.trimmingCharacters(in: .whitespaces)))
        #expect(table.stdout.contains("(details cut at 100 characters: --format csv or json shows them whole)"))
        let csv = try ChurnCommand.run(["quarantine", "list", "--format", "csv"] + database)
        #expect(csv.stdout.contains(long.trimmingCharacters(in: .whitespaces)), "\(csv.stdout)")
    }
}
