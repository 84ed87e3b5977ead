import AnalysisStore
import Foundation
import PGClient
import Store
import Synchronization
import TestSupport
import Testing

/// The nightly job as cron runs it: the built binary against a real database.
@Suite struct NightlyTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("IngestTests/Fixtures")

    /// A directory with the billing-lifecycle export and a place for reports.
    struct Workspace {
        let root: URL
        let exports: URL
        /// The `--reports-root` the commands are given.
        let reportsRoot: URL
        /// Where the workspace's Sandbox reports go under it, with their own `latest`.
        let reports: URL
        let schema: TestDatabase.Schema

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID().uuidString)")
            exports = root.appendingPathComponent("exports")
            reportsRoot = root.appendingPathComponent("reports")
            reports = reportsRoot.appendingPathComponent("sandbox")
            try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
            let names = (1...5).map { index in
                [
                    "01_DID_FAIL_TO_RENEW_GRACE_PERIOD", "02_GRACE_PERIOD_EXPIRED", "03_DID_RENEW_BILLING_RECOVERY",
                    "04_DID_FAIL_TO_RENEW", "05_EXPIRED_BILLING_RETRY",
                ][index - 1] + ".jws"
            }
            let lines = try names.map {
                "{\"signedPayload\":\""
                    + (try String(contentsOf: fixtures.appendingPathComponent($0), encoding: .utf8))
                    .trimmingCharacters(in: .whitespacesAndNewlines) + "\"}"
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: exports.appendingPathComponent("day1.jsonl"))
            schema = try TestDatabase.makeSchema("nightly")
        }

        func nightly(_ extra: [String] = []) throws -> ChurnCommand.Result {
            try ChurnCommand.run(
                [
                    "nightly", "--database-url", schema.url, "--trust-root",
                    fixtures.appendingPathComponent("testCA.der").path, "--environment", "Sandbox", "--reports-root",
                    reportsRoot.path,
                ] + extra + [exports.path]
            )
        }

        func reportFiles() throws -> [String: Data] {
            let directory = reports.appendingPathComponent("latest")
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
            }
            return files
        }
    }

    @Test func runningTwiceLoadsNothingNewAndWritesIdenticalFiles() throws {
        let workspace = try Workspace()
        let first = try workspace.nightly(["--verbose"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("5 new"))
        let destination = try FileManager.default.destinationOfSymbolicLink(
            atPath: workspace.reports.appendingPathComponent("latest").path
        )
        #expect(destination == "2024-07-19")
        // A Sandbox run writes into a folder of its own: the root's dated directories and `latest` are Production's.
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.reportsRoot.path) == ["sandbox"])
        let before = try workspace.reportFiles()
        #expect(
            before.keys.sorted() == [
                "billing_failures.csv", "data_quality.csv", "flows.csv", "forecast_check.csv", "grace_period.csv",
                "grace_revenue.csv", "grace_whatif.csv", "headline.json", "message_bands.csv", "open_episodes.csv",
                "recovery_by_cohort.csv", "recovery_curve.csv", "recovery_curve.svg", "recovery_hazard.svg",
                "retry_days.csv", "returns.csv", "revenue.csv", "summary.md",
            ])

        let second = try workspace.nightly(["--verbose"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("no new export files (1 already loaded)"))
        #expect(try workspace.reportFiles() == before)
        let connection = try workspace.schema.connect()
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "5")
        #expect(try connection.execute("SELECT count(*) FROM load_runs").scalar == "1")

        // Yesterday's export sent again under today's name: nothing new, and the exit-5 message says which file it
        // repeats rather than only "all loaded before".
        let day1 = workspace.exports.appendingPathComponent("day1.jsonl")
        let day2 = workspace.exports.appendingPathComponent("day2.jsonl")
        try FileManager.default.copyItem(at: day1, to: day2)
        let resent = try workspace.nightly(["--expect-new"])
        #expect(resent.status == 5, "\(resent.stdout)\(resent.stderr)")
        #expect(
            resent.stderr.contains("\(day2.path) has the same content as \(day1.path) (load run 1)"),
            "\(resent.stderr)")
    }

    /// A Production and a Sandbox nightly over one exports directory, both with --expect-new: each takes the
    /// notifications of its own environment as new, whichever run stored them (the second run once exited 5).
    @Test func twoEnvironmentsOverOneDirectoryEachSeeTheirOwnNewData() throws {
        let workspace = try Workspace()
        // Apple's samples are Sandbox notifications: the Production run stores them but has nothing new of its own.
        let production = try ChurnCommand.run(
            [
                "nightly", "--database-url", workspace.schema.url, "--trust-root",
                Self.fixtures.appendingPathComponent("testCA.der").path, "--environment", "Production",
                "--reports-root",
                workspace.reportsRoot.path, "--expect-new", workspace.exports.path,
            ])
        #expect(production.status == 5, "\(production.stdout)\(production.stderr)")
        #expect(
            production.stderr.contains(
                "no new Production notification arrived (--expect-new): the 5 notification(s) this run stored under "
                    + "\(workspace.exports.path) are of other environments"), "\(production.stderr)")
        // The Sandbox run loads nothing (the file is stored) but analyses its five notifications for the first time.
        let sandbox = try workspace.nightly(["--expect-new"])
        #expect(sandbox.status == 0, "\(sandbox.stdout)\(sandbox.stderr)")
        let again = try workspace.nightly(["--expect-new"])
        #expect(again.status == 5, "\(again.stdout)\(again.stderr)")
    }

    @Test func aFileStillBeingWrittenIsLeftForTheNextRunNotRefused() throws {
        let workspace = try Workspace()
        let file = workspace.exports.appendingPathComponent("day1.jsonl")
        let whole = try Data(contentsOf: file)
        // Cron fires while the exporter is in the middle of the last line.
        try whole.prefix(whole.count - 40).write(to: file)
        let early = try workspace.nightly(["--verbose"])
        #expect(early.status == 0, "\(early.stderr)")
        #expect(early.stdout.contains("left for the next run: 1 file(s)"), "\(early.stdout)")
        #expect(!early.stdout.contains("rejected"))
        let connection = try workspace.schema.connect()
        #expect(try connection.execute("SELECT count(*) FROM quarantine").scalar == "0")
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "0")
        // Under cron with --expect-new, the exit-5 message names the file held back, so the mail does not send the
        // engineer after an exporter that did deliver.
        let expecting = try workspace.nightly(["--expect-new"])
        #expect(expecting.status == 5, "\(expecting.stdout)\(expecting.stderr)")
        #expect(
            expecting.stderr.contains("left for the next run, still being written")
                && expecting.stderr.contains(file.lastPathComponent), "\(expecting.stderr)")

        // The exporter finishes: the next run loads the whole file.
        try whole.write(to: file)
        let later = try workspace.nightly(["--verbose"])
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout.contains("5 new"), "\(later.stdout)")
        #expect(try connection.execute("SELECT count(*) FROM quarantine").scalar == "0")
    }

    @Test func aSecondRunWhileOneHoldsTheLockExitsWithLockBusy() throws {
        let workspace = try Workspace()
        let holder = try workspace.schema.migrated()
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.nightly, on: holder)
        #expect(try holder.tryAdvisoryLock(lock))
        let pid = try #require(try holder.execute("SELECT pg_backend_pid()").scalar)
        let blocked = try workspace.nightly(["--lock-timeout", "1"])
        #expect(blocked.status == 75)
        // It says what it waits for, and who holds it, before it waits.
        #expect(blocked.stderr.contains("waiting up to 1 s for another nightly run to finish"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("PostgreSQL session \(pid) (churn), connected "), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("another nightly run holds the lock"))
        try holder.advisoryUnlock(lock)
        #expect(try workspace.nightly().status == 0)
    }

    @Test func twoNightlyRunsAtOnceStoreEachNotificationOnce() throws {
        let workspace = try Workspace()
        _ = try workspace.schema.migrated()
        let results = UnsafeResults()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.set(index, try? workspace.nightly(["--lock-timeout", "60"]))
        }
        #expect(results.values.compactMap { $0?.status } == [0, 0])
        let connection = try workspace.schema.connect()
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "5")
        #expect(try connection.execute("SELECT count(*) FROM billing_episodes").scalar == "2")
    }

    @Test func aLatestThatCannotBeReplacedIsNamedWithTheSystemsReason() throws {
        let workspace = try Workspace()
        let latest = workspace.reports.appendingPathComponent("latest")
        try FileManager.default.createDirectory(at: latest, withIntermediateDirectories: true)
        try Data("kept\n".utf8).write(to: latest.appendingPathComponent("notes.txt"))
        let result = try workspace.nightly()
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("replacing the latest report link: \(latest.path): Is a directory"),
            "\(result.stderr)"
        )
        #expect(FileManager.default.fileExists(atPath: latest.appendingPathComponent("notes.txt").path))
    }

    /// A query that brings the episodes up to date while the nightly runs analyses the nightly's new files before the
    /// nightly's own analysis gets to them: the run still stored new notifications, so `--expect-new` is satisfied.
    /// (The query is played by an analysis in this process, let in while the nightly waits for the analysis lock.)
    @Test func newDataAnalysedByAQueryDuringTheRunIsStillNew() throws {
        let workspace = try Workspace()
        let gate = try workspace.schema.connect()
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.analyze, on: gate)
        #expect(try gate.tryAdvisoryLock(lock))
        let nightly = try ChurnCommand.start(
            [
                "nightly", "--expect-new", "--database-url", workspace.schema.url, "--trust-root",
                Self.fixtures.appendingPathComponent("testCA.der").path, "--environment", "Sandbox", "--reports-root",
                workspace.reportsRoot.path, workspace.exports.path,
            ])
        // The nightly has loaded its file and waits to analyse it.
        #expect(try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: lock, on: gate) == 1 })
        let analysed = try EpisodeAnalyzer(writer: gate, reader: try workspace.schema.connect(), logger: .test)
            .analyze(environment: "Sandbox")
        #expect(analysed.filesAnalyzed == 1, "the file was stored before the query's analysis")
        try gate.advisoryUnlock(lock)
        let result = nightly.wait()
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// A run killed after its analysis, before its report, counted nothing: the next run finds the killed run's
    /// files new, and the run after it nothing.
    @Test func aRunKilledAfterItsAnalysisLeavesItsDataNewForTheNext() throws {
        let workspace = try Workspace()
        let arguments = [
            "nightly", "--expect-new", "--database-url", workspace.schema.url, "--trust-root",
            Self.fixtures.appendingPathComponent("testCA.der").path, "--environment", "Sandbox", "--reports-root",
            workspace.reportsRoot.path, workspace.exports.path,
        ]
        let killed = try ChurnCommand.run(arguments, environment: ["CHURN_FAULT": "nightly.before-report"])
        #expect(killed.signal == SIGKILL)
        let again = try ChurnCommand.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        let third = try ChurnCommand.run(arguments)
        #expect(third.status == 5, "\(third.stderr)")
    }

    @Test func jsonLogsAreOneObjectPerLine() throws {
        let workspace = try Workspace()
        let result = try workspace.nightly(["--log-format", "json", "--log-level", "info"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["message"] != nil && object?["level"] != nil)
        }
    }
}

/// Results written by concurrent iterations, each to its own slot.
final class UnsafeResults: Sendable {
    private let slots = Mutex<[ChurnCommand.Result?]>([nil, nil])

    var values: [ChurnCommand.Result?] { slots.withLock { $0 } }

    func set(_ index: Int, _ value: ChurnCommand.Result?) {
        slots.withLock { $0[index] = value }
    }
}
