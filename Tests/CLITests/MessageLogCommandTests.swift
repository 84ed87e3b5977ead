import Foundation
import PGClient
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `churn messages load` as a user runs it, and the report it feeds: a log written for episodes of a simulated
/// history is stored once, survives a kill, and comes out in `message_log.csv`, `message_experiment.csv`, data quality
/// and the summary, none of which a report without a log writes.
@Suite(.serialized) struct MessageLogCommandTests {
    /// A simulated history, loaded, and a log of 20 of its episodes: the sheet shown an hour after each one's t0, the
    /// arms `a` and `b` in turn; one event a millisecond before the first of them, so that the log covers it, and one
    /// for a subscription the database does not hold: 22 events, 2 of them outside retry.
    struct Fixture {
        let export: SimulatedExport
        let schema: TestDatabase.Schema
        let log: URL
        /// The logged episodes, by t0.
        let logged: Int

        init(_ label: String) throws {
            export = try SimulatedExport(label, subscribers: 600, seed: 53)
            schema = try export.loadedUnverified(into: label)
            let analyze = try ChurnCommand.run(["analyze", "--database-url", schema.url])
            #expect(analyze.status == 0, "\(analyze.stderr)")
            // Standard episodes whose grace end is known (if they have one) still in retry an hour after t0, each t0
            // its own: day 1 is never a grace-end day of the simulator's grace lengths.
            let result = try schema.connect().execute(
                """
                SELECT DISTINCT ON (start_at) original_transaction_id,
                       (date_part('epoch', start_at) * 1000)::int8 AS start_ms
                FROM billing_episodes
                WHERE environment = 'Production' AND billing_plan = 'standard'
                  AND (NOT has_grace OR grace_end IS NOT NULL)
                  AND (end_at IS NULL OR end_at > start_at + interval '1 hour')
                ORDER BY start_at, original_transaction_id
                LIMIT 20
                """)
            let (id, start) = (try result.field("original_transaction_id"), try result.field("start_ms"))
            var lines = ["original_transaction_id,at,action,arm"]
            for (index, row) in result.rows.enumerated() {
                let at = try row.decode(Int64.self, start) + 3_600_000
                lines.append("\(try row.decode(String.self, id)),\(at),shown,\(index % 2 == 0 ? "a" : "b")")
            }
            logged = result.rows.count
            let first = try #require(result.rows.first)
            let firstStart = try first.decode(Int64.self, start)
            // A millisecond before the first logged t0, so that the log covers that episode too; outside retry.
            lines.append("\(try first.decode(String.self, id)),\(firstStart - 1),shown,")
            lines.append("no-such-subscription,\(firstStart + 7_200_000),shown,")
            log = export.directory.appendingPathComponent("sheet.csv")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
        }

        func report(_ name: String) throws -> URL {
            let reports = export.directory.appendingPathComponent(name)
            let run = try ChurnCommand.run(["report", "--database-url", schema.url, "--reports-root", reports.path])
            #expect(run.status == 0, "\(run.stderr)")
            return reports.appendingPathComponent("latest")
        }
    }

    static func read(_ url: URL) throws -> [[String]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func aLoadedLogComesOutInTheReport() throws {
        let fixture = try Fixture("message-log-report")
        defer { fixture.export.remove() }
        #expect(fixture.logged == 20)

        let before = try fixture.report("before")
        let names = try FileManager.default.contentsOfDirectory(atPath: before.path)
        #expect(!names.contains("message_log.csv") && !names.contains("message_experiment.csv"))
        let unasked = try ChurnCommand.run(["query", "message-log", "--database-url", fixture.schema.url])
        #expect(unasked.status == 1)
        #expect(unasked.stderr.contains("churn messages load FILE…"))

        let load = try ChurnCommand.run(["messages", "load", "--database-url", fixture.schema.url, fixture.log.path])
        #expect(load.status == 0, "\(load.stderr)")
        #expect(load.stdout.contains("\(fixture.log.path): 22 events, 22 new, 0 already stored, 0 refused"))

        let after = try fixture.report("after")
        let log = try Self.read(after.appendingPathComponent("message_log.csv"))
        #expect(
            log.first == [
                "band", "episodes", "shown_days", "shown_day_hazard", "other_day_hazard", "hazard_ratio",
                "hazard_ratio_low", "hazard_ratio_high",
            ])
        let all = try #require(log.last)
        #expect(all.first == "(all)")
        // The log covers the app from its first event to its last: each of the 20 episodes shown on day 1, among
        // the other episodes that began in between.
        #expect(all[2] == "20")
        #expect(Int(all[1]) ?? 0 >= 20)
        #expect(log.dropFirst().first?[2] == "20", "band 1 holds day 1")

        let arms = try Self.read(after.appendingPathComponent("message_experiment.csv"))
        #expect(arms.dropFirst().map { $0[0] } == ["a", "b"])
        #expect(arms.dropFirst().map { $0[1] } == ["10", "10"])
        let difference = try #require(arms.first?.firstIndex(of: "difference"))
        #expect(arms[1][difference] == "" && arms[2][difference] != "", "the reference arm has no difference")

        // The queries answer what the files say.
        for (question, file) in [("message-log", "message_log.csv"), ("message-experiment", "message_experiment.csv")] {
            let query = try ChurnCommand.run(
                ["query", question, "--format", "csv", "--database-url", fixture.schema.url])
            #expect(query.status == 0, "\(query.stderr)")
            #expect(
                query.stdout == (try String(contentsOf: after.appendingPathComponent(file), encoding: .utf8)),
                "churn query \(question)")
        }

        let quality = try Self.read(after.appendingPathComponent("data_quality.csv"))
        #expect(quality.contains(["message_event_outside_retry", "2"]))
        let summary = try String(contentsOf: after.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("## Billing messages the app showed"))
        #expect(summary.contains("`message_log.csv`") && summary.contains("`message_experiment.csv`"))

        // Loading the same log again adds nothing, and the report is the same.
        let again = try ChurnCommand.run(["messages", "load", "--database-url", fixture.schema.url, fixture.log.path])
        #expect(again.stdout.contains("22 events, 0 new, 22 already stored, 0 refused"))
        let same = try fixture.report("again")
        for name in ["message_log.csv", "message_experiment.csv", "data_quality.csv"] {
            #expect(
                try String(contentsOf: same.appendingPathComponent(name), encoding: .utf8)
                    == String(contentsOf: after.appendingPathComponent(name), encoding: .utf8))
        }
    }

    @Test func aKillLeavesTheFileAllStoredOrNotAtAll() throws {
        let fixture = try Fixture("message-log-kill")
        defer { fixture.export.remove() }
        let arguments = ["messages", "load", "--database-url", fixture.schema.url, fixture.log.path]
        let killed = try ChurnCommand.run(arguments, environment: ["CHURN_FAULT": "messages.file-copied"])
        #expect(killed.signal == SIGKILL, "status \(killed.status): \(killed.stderr)")
        let connection = try fixture.schema.connect()
        #expect(try connection.execute("SELECT count(*) FROM message_events").scalar == "0")
        #expect(
            try connection.execute("SELECT count(*) FROM load_runs WHERE command = 'messages load'").scalar == "1")

        let rerun = try ChurnCommand.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("22 events, 22 new, 0 already stored, 0 refused"))
        #expect(try connection.execute("SELECT count(*) FROM message_events").scalar == "22")
        let statuses = try connection.execute(
            "SELECT string_agg(status, ' ' ORDER BY id) FROM load_runs WHERE command = 'messages load'"
        ).scalar
        #expect(statuses == "interrupted succeeded")
    }

    @Test func refusedLinesAreNamedAndExitTwoUnlessAllowed() throws {
        let schema = try TestDatabase.makeSchema("message-log-refused")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("sheet.csv")
        try Data("original_transaction_id,at,action\n1000,2026-03-01T09:30:00Z,shown\n1001,yesterday,shown\n".utf8)
            .write(to: log)

        let refused = try ChurnCommand.run(["messages", "load", "--database-url", schema.url, log.path])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stdout.contains("1 event, 1 new, 0 already stored, 1 refused"))
        #expect(refused.stdout.contains("refused \(log.path):3: message_bad_time: at \"yesterday\" is not"))
        #expect(refused.stderr.contains("--max-rejects"))

        let allowed = try ChurnCommand.run(
            ["messages", "load", "--max-rejects", "1", "--database-url", schema.url, log.path])
        #expect(allowed.status == 0, "\(allowed.stderr)")

        let missing = try ChurnCommand.run(
            ["messages", "load", "--database-url", schema.url, directory.appendingPathComponent("nope.csv").path])
        #expect(missing.status == 66)
        let usage = try ChurnCommand.run(["messages", "load", "--max-rejects", "-1", log.path])
        #expect(usage.status == 64)
    }
}
