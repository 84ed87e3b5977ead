import Foundation
import PGClient
import TestSupport
import Testing

/// A file whose inputs `churn nightly` refused for an option (a mistyped `--bundle-id`, a missing `--trust-root`) is
/// loaded again once the option is fixed: the refused notifications reach the report, and its data-quality counts
/// are a clean run's.
@Suite struct MendedRefusalsTests {
    /// A simulated export in a directory of its own, and a database and reports root per run.
    struct Workspace {
        let root: URL
        let exports: URL
        let trustRoot: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("mended-\(UUID().uuidString)")
            exports = root.appendingPathComponent("exports")
            try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
            let export = exports.appendingPathComponent("day1.jsonl")
            let simulate = try ChurnCommand.run(
                ["simulate", "--subscribers", "40", "--seed", "8", "--months", "4", "--out", export.path]
            )
            #expect(simulate.status == 0, "\(simulate.stderr)")
            // The trust root lies beside the export, outside the directory nightly reads.
            trustRoot = root.appendingPathComponent("export.root.der").path
            try FileManager.default.moveItem(
                atPath: exports.appendingPathComponent("day1.root.der").path, toPath: trustRoot
            )
        }

        func nightly(_ schema: TestDatabase.Schema, reports: String, _ options: [String]) throws -> ChurnCommand.Result
        {
            try ChurnCommand.run(
                ["nightly", "--database-url", schema.url, "--reports-root", root.appendingPathComponent(reports).path]
                    + options + [exports.path]
            )
        }

        /// The latest report's files that do not depend on the reports before it.
        func tables(_ reports: String) throws -> [String: String] {
            let latest = root.appendingPathComponent(reports).appendingPathComponent("latest")
            var files: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: latest.path) where name.hasSuffix(".csv") {
                files[name] = try String(contentsOf: latest.appendingPathComponent(name), encoding: .utf8)
            }
            return files
        }
    }

    @Test func aFixedBundleIDBringsTheRefusedNotificationsIn() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.root) }
        let clean = try TestDatabase.makeSchema("mendclean")
        let reference = try workspace.nightly(clean, reports: "clean", ["--trust-root", workspace.trustRoot])
        #expect(reference.status == 0, "\(reference.stderr)")
        let expected = try workspace.tables("clean")
        #expect(expected["data_quality.csv"]?.contains("outside_bundle") == false)

        let schema = try TestDatabase.makeSchema("mendbundle")
        let mistyped = try workspace.nightly(
            schema, reports: "reports", ["--trust-root", workspace.trustRoot, "--bundle-id", "com.example.App"]
        )
        #expect(mistyped.status == 2, "\(mistyped.stdout)\(mistyped.stderr)")
        #expect(mistyped.stdout.contains("wrong_bundle_id"), "\(mistyped.stdout)")
        #expect(mistyped.stdout.contains("then left out by --bundle-id or --environment; none accepted"))
        let connection = try schema.connect()
        let refused = try connection.execute("SELECT count(*) FROM quarantine WHERE reason = 'wrong_bundle_id'")
        #expect(Int(refused.scalar ?? "") ?? 0 > 100)

        // The same options again: nothing to mend and nothing loaded, but the refused inputs still stand, so the run
        // says so and exits 2 again, every night until the option is fixed (once, it exited 0 in silence).
        let again = try workspace.nightly(
            schema, reports: "reports", ["--trust-root", workspace.trustRoot, "--bundle-id", "com.example.App"]
        )
        #expect(again.status == 2, "\(again.stdout)\(again.stderr)")
        #expect(!again.stdout.contains("loading again"))
        let stillRefused = try #require(refused.scalar)
        #expect(
            again.stderr.contains(
                "\(stillRefused) input(s) of 1 file(s) loaded before still stand refused with this run's options "
                    + "(wrong_bundle_id \(stillRefused))"), "\(again.stderr)")
        #expect(again.stderr.contains("Fix --bundle-id and the next run loads them again"), "\(again.stderr)")

        let fixed = try workspace.nightly(
            schema, reports: "reports",
            ["--trust-root", workspace.trustRoot, "--bundle-id", "com.example.app", "--verbose"]
        )
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("loading again 1 file(s)"), "\(fixed.stdout)")
        // The summary line says what the run stored (one refused input was a copy of a stored notification), not
        // "nothing new".
        #expect(
            fixed.stdout.contains("(read again: run 1 loaded the same content; this run stored 172 it had not)"),
            "\(fixed.stdout)")
        #expect(try workspace.tables("reports") == expected)

        // Mended: the next run leaves the file alone.
        let after = try workspace.nightly(
            schema, reports: "reports",
            ["--trust-root", workspace.trustRoot, "--bundle-id", "com.example.app", "--verbose"]
        )
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("no new export files (1 already loaded)"), "\(after.stdout)")
        let unresolved = try connection.execute("SELECT count(*) FROM quarantine WHERE resolved_by_run IS NULL")
        #expect(unresolved.scalar == "0")
    }

    /// Two files hold the same notifications (the day's export and, in another order, the history fetched for it),
    /// both refused under a wrong `--bundle-id`. The run with the fixed option is killed once the first file is
    /// stored whole: the second file's refusals are then resolved, its notifications stored by the first. The next run
    /// still loads it again, so its lines count as the further copies they are, and the report's data quality equals
    /// a clean run's.
    @Test func aFileWhoseRefusalsAnotherFileResolvedIsStillLoadedAgain() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.root) }
        let day = workspace.exports.appendingPathComponent("day1.jsonl")
        let lines = try String(contentsOf: day, encoding: .utf8).split(separator: "\n")
        try Data((lines.reversed().joined(separator: "\n") + "\n").utf8).write(
            to: workspace.exports.appendingPathComponent("history.jsonl"))
        let clean = try TestDatabase.makeSchema("mendcopiesclean")
        #expect(try workspace.nightly(clean, reports: "clean", ["--trust-root", workspace.trustRoot]).status == 0)
        let expected = try workspace.tables("clean")

        let schema = try TestDatabase.makeSchema("mendcopies")
        let right = ["--trust-root", workspace.trustRoot, "--bundle-id", "com.example.app"]
        let wrong = try workspace.nightly(
            schema, reports: "soak", ["--trust-root", workspace.trustRoot, "--bundle-id", "com.example.wrong"])
        #expect(wrong.status == 2, "\(wrong.stderr)")
        let killed = try ChurnCommand.run(
            [
                "nightly", "--database-url", schema.url, "--reports-root",
                workspace.root.appendingPathComponent("soak").path,
            ]
                + right + [workspace.exports.path],
            environment: ["CHURN_FAULT": "load.file-committed:1"])
        #expect(killed.signal == SIGKILL)
        let again = try workspace.nightly(schema, reports: "soak", right + ["--verbose"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("loading again 1 file(s)"), "\(again.stdout)")
        let copies = { (schema: TestDatabase.Schema) in
            try schema.connect().execute("SELECT count(*) FROM notification_copies").scalar
        }
        #expect(try copies(schema) == copies(clean))
        #expect(try workspace.tables("soak")["data_quality.csv"] == expected["data_quality.csv"])
    }

    @Test func aTrustRootGivenLaterBringsTheUntrustedNotificationsIn() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.root) }
        let clean = try TestDatabase.makeSchema("trustclean")
        #expect(try workspace.nightly(clean, reports: "clean", ["--trust-root", workspace.trustRoot]).status == 0)
        let expected = try workspace.tables("clean")

        let schema = try TestDatabase.makeSchema("trustlater")
        let untrusted = try workspace.nightly(schema, reports: "reports", [])
        #expect(untrusted.status == 2, "\(untrusted.stdout)\(untrusted.stderr)")
        #expect(untrusted.stdout.contains("untrusted_chain"), "\(untrusted.stdout)")
        #expect(untrusted.stdout.contains("signatures: no notification passed verification"), "\(untrusted.stdout)")
        let still = try workspace.nightly(schema, reports: "reports", [])
        #expect(still.status == 2, "\(still.stdout)\(still.stderr)")
        #expect(still.stderr.contains("Fix --trust-root and the next run loads them again"), "\(still.stderr)")

        let trusted = try workspace.nightly(schema, reports: "reports", ["--trust-root", workspace.trustRoot])
        #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
        #expect(try workspace.tables("reports") == expected)
    }
}
