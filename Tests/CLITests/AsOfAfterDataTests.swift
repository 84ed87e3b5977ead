import Foundation
import PGClient
import TestSupport
import Testing

/// An `--as-of` after the latest notification loaded: up to 7 days after it is taken with a warning and named in
/// the summary's first line; more is refused (64), since every episode still open would count as churn. One before
/// the earliest notification is refused too: nothing is known as of then.
@Suite struct AsOfAfterDataTests {
    @Test func anAsOfAfterTheDataIsSaidOrRefused() throws {
        let simulated = try SimulatedExport("asof", subscribers: 20, seed: 5)
        defer { simulated.remove() }
        let (directory, export) = (simulated.directory, simulated.export)
        let schema = try TestDatabase.makeSchema("asofafter")
        let database = ["--database-url", schema.url]
        let load = try ChurnCommand.run(["load", "--no-verify"] + database + [export.path])
        #expect(load.status == 0, "\(load.stderr)")
        let latest = try #require(
            try schema.connect().execute(
                "SELECT to_char(max(signed_date) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM notifications"
            ).scalar)
        func day(after days: Int) throws -> String {
            try #require(
                try schema.connect().execute(
                    "SELECT to_char((max(signed_date) AT TIME ZONE 'UTC')::date + $1::int, 'YYYY-MM-DD') FROM notifications",
                    [String(days)]
                ).scalar)
        }

        // Three days after: taken, said on stderr and in the summary's first line.
        let out = directory.appendingPathComponent("report")
        let near = try ChurnCommand.run(["report", "--as-of", try day(after: 3), "--out", out.path] + database)
        #expect(near.status == 0, "\(near.stderr)")
        // A logged warning reads as the command's own do: `churn: warning: …` (once it had a time and the module).
        #expect(
            near.stderr.contains("churn: warning: the as-of time is after the latest notification loaded"),
            "\(near.stderr)")
        let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        let title = try #require(summary.split(separator: "\n").first)
        #expect(title.hasSuffix(", after the latest notification loaded (signed \(latest) UTC)"), "\(title)")

        // Nine days after: refused, by report and by query alike.
        let far = try day(after: 9)
        let report = try ChurnCommand.run(["report", "--as-of", far, "--out", out.path] + database)
        #expect(report.status == 64, "\(report.stdout)\(report.stderr)")
        #expect(
            report.stderr.contains("is more than 7 days after the latest notification loaded (signed \(latest) UTC)"))
        let query = try ChurnCommand.run(["query", "recovery-rate", "--as-of", far] + database)
        #expect(query.status == 64, "\(query.stdout)\(query.stderr)")
        #expect(query.stderr.contains("more than 7 days after the latest notification loaded"), "\(query.stderr)")
        // Before the earliest notification: refused, by report and by query alike, where both once answered zeros.
        let earliest = try #require(
            try schema.connect().execute(
                "SELECT to_char(min(signed_date) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM notifications"
            ).scalar)
        for command in [["report", "--out", out.path], ["query", "recovery-rate"]] {
            let early = try ChurnCommand.run(command + ["--as-of", "2010-01-01"] + database)
            #expect(early.status == 64, "\(command[0]): \(early.stdout)\(early.stderr)")
            #expect(
                early.stderr.contains("is before the earliest notification loaded (signed \(earliest) UTC)"),
                "\(early.stderr)")
        }
        // As of the latest data: nothing to say.
        let plain = try ChurnCommand.run(["query", "recovery-rate"] + database)
        #expect(plain.status == 0 && !plain.stderr.contains("after the latest notification"), "\(plain.stderr)")
    }
}
