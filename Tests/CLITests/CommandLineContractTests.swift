import Foundation
import PGClient
import TestSupport
import Testing

/// What each command promises at the command line: one message style, one documented exit code per kind of
/// failure, values refused rather than misread, and quiet success under cron.
@Suite struct CommandLineContractTests {
    /// A loaded database and a place for exports and reports.
    struct Loaded {
        let workspace: NightlyTests.Workspace

        init() throws {
            workspace = try NightlyTests.Workspace()
            let first = try workspace.nightly()
            #expect(first.status == 0, "\(first.stderr)")
        }

        func churn(_ arguments: [String]) throws -> ChurnCommand.Result {
            try ChurnCommand.run(arguments + ["--database-url", workspace.schema.url])
        }
    }

    /// A file of bytes that are neither text nor a certificate.
    static func binaryFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("binary-\(UUID().uuidString).bin")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0x80...0xFF, using: &generator) }).write(to: url)
        return url
    }

    static func expectError(
        _ result: ChurnCommand.Result, status: Int32, _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("churn: error: "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Error Domain"), sourceLocation: sourceLocation)
    }

    @Test func anInputThatCannotBeReadGives66InTheOneStyle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        Self.expectError(
            try ChurnCommand.run(["load", "/nonexistent/export.jsonl.gz"]), status: 66,
            "cannot read /nonexistent/export.jsonl.gz: No such file or directory."
        )
        Self.expectError(
            try ChurnCommand.run(["nightly", "/no/such/dir"]), status: 66,
            "cannot read /no/such/dir: No such file or directory."
        )
        Self.expectError(
            try ChurnCommand.run(["load", directory.path]), status: 66,
            "cannot read \(directory.path): it is a directory."
        )
    }

    @Test func refusedCredentialsGive77NotUnreachable() throws {
        let schema = try TestDatabase.makeSchema("credentials")
        let result = try ChurnCommand.run(["migrate", "--database-url", schema.url + " user=no_such_role_churn"])
        Self.expectError(result, status: 77, "PostgreSQL refused the credentials")
        #expect(result.stderr.contains("retrying will not help"))
    }

    @Test func readCommandsCreateNoClusterAndNoSchemaAndNameTheDatabaseTheyLookedAt() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("no-cluster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let reads = [["query", "recovery-rate"], ["report", "--out", home.path + "-report"], ["quarantine", "list"]]
        for command in reads {
            let result = try ChurnCommand.run(
                command, environment: ["CHURN_HOME": home.path, "DATABASE_URL": nil, "PGHOST": nil, "PGDATABASE": nil])
            Self.expectError(result, status: 1, "nothing is loaded yet in the embedded cluster in \(home.path)")
            #expect(!FileManager.default.fileExists(atPath: home.path), "\(command) made \(home.path)")
        }
        let schema = try TestDatabase.makeSchema("readonly")
        for command in reads {
            let result = try ChurnCommand.run(command + ["--database-url", schema.url])
            Self.expectError(result, status: 1, "nothing is loaded yet in ")
            #expect(result.stderr.contains(" database "), "names the database: \(result.stderr)")
        }
        let tables = try schema.connect().execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()")
        #expect(tables.scalar == "0")
    }

    @Test func aMissingDatabaseOrAMalformedURLGives78NotUnreachable() throws {
        let schema = try TestDatabase.makeSchema("configuration")
        for url in [
            schema.url + " dbname=no_such_database_churn", "postgresql://x@/db?no_such_option=1", "host=/x dbname",
        ] {
            let result = try ChurnCommand.run(["query", "recovery-rate", "--database-url", url])
            Self.expectError(result, status: 78, "retrying will not help")
            #expect(!result.stderr.contains("retry later"))
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    @Test(arguments: [
        ("2025-06-15garbage", "not a valid day"),
        ("2025-02-30", "not a valid day"),
        ("2025-06-15T99:99Z", "not a valid ISO 8601 instant with a zone"),
        ("2025-06-15T10:00", "not a valid ISO 8601 instant with a zone"),
        ("1750000000", "this looks like Unix seconds; give milliseconds (1750000000000)"),
        ("99", "Unix milliseconds out of the range 2008–2100"),
    ])
    func asOfRefusesAnythingButAValidDayInstantOrMilliseconds(value: String, why: String) throws {
        for command in [["report"], ["query", "recovery-rate"]] {
            let result = try ChurnCommand.run(command + ["--as-of", value])
            Self.expectError(result, status: 64, "--as-of \(value): \(why); expected a day (2026-11-20")
            #expect(result.stderr.contains("2026-11-20T14:00+02:00") && result.stderr.contains("1763640000000"))
        }
    }

    @Test func asOfTakesEachFormAndTheZoneCounts() throws {
        let loaded = try Loaded()
        // The lifecycle's notifications are signed on 2024-07-19; each form names an instant after them.
        for value in ["2024-07-20", "2024-07-20T10:00:00Z", "2024-07-20T12:00+02:00", "1721469600000"] {
            let result = try loaded.churn(["query", "recovery-rate", "--environment", "sandbox", "--as-of", value])
            #expect(result.status == 0, "\(value): \(result.stderr)")
        }
        let utc = try loaded.churn(
            ["query", "episodes", "--environment", "Sandbox", "--format", "csv", "--as-of", "2024-07-20T10:00:00Z"])
        let shifted = try loaded.churn(
            ["query", "episodes", "--environment", "Sandbox", "--format", "csv", "--as-of", "2024-07-20T12:00+02:00"])
        #expect(utc.stdout == shifted.stdout)
        #expect(!utc.stdout.isEmpty)
    }

    @Test func environmentTakesApplesNamesInAnyCaseAndRefusesOthers() throws {
        for value in ["production", "Prod", "live"] where value != "production" {
            let result = try ChurnCommand.run(["query", "recovery-rate", "--environment", value])
            Self.expectError(result, status: 64, "The value '\(value)' is invalid for '--environment <name>'")
            #expect(result.stderr.contains("'Sandbox', 'Production'"))
        }
        let loaded = try Loaded()
        let lower = try loaded.churn(["query", "recovery-rate", "--environment", "sandbox", "--format", "csv"])
        let exact = try loaded.churn(["query", "recovery-rate", "--environment", "Sandbox", "--format", "csv"])
        #expect(lower.status == 0 && exact.status == 0)
        #expect(lower.stdout == exact.stdout)
        // The lifecycle export holds two Sandbox episodes.
        #expect(lower.stdout.split(separator: "\n").dropFirst().first?.hasPrefix("2,") == true, "\(lower.stdout)")
    }

    @Test func anUnknownOptionIsReportedAsOneNotAsAPath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try ChurnCommand.run(["nightly", "--as-of", "2025-06-30", directory.path])
        Self.expectError(result, status: 64, "Unknown option '--as-of'")
        #expect(!result.stderr.contains("no such file"))
    }

    @Test func underJSONLogsEveryStderrLineIsAnObjectWithNumbersAsNumbers() throws {
        func objects(_ result: ChurnCommand.Result) throws -> [[String: Any]] {
            try result.stderr.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
            }
        }
        let failed = try ChurnCommand.run(["load", "--log-format", "json", "/nonexistent/export.jsonl"])
        #expect(failed.status == 66)
        let error = try #require(try objects(failed).first)
        #expect(error["level"] as? String == "error")
        #expect(error["exit_code"] as? Int == 66)
        #expect((error["message"] as? String)?.contains("cannot read /nonexistent/export.jsonl") == true)

        let usage = try ChurnCommand.run(["load", "--log-format=json", "--no-such-flag", "x"])
        #expect(usage.status == 64)
        #expect(try objects(usage).count == 1)

        // The run completes with rejects: its warning says the exit code the run ends with.
        let rejects = try Loaded().churn(["load", "--log-format", "json", try Self.binaryFile().path])
        #expect(rejects.status == 2, "\(rejects.stderr)")
        let rejectsWarning = try #require(try objects(rejects).first { $0["level"] as? String == "warning" })
        #expect(rejectsWarning["exit_code"] as? Int == 2)
        #expect((rejectsWarning["message"] as? String)?.contains("rejected, more than --max-rejects 0") == true)

        // A reports root that cannot be made: one line, no usage.
        for command in [["report"], ["nightly", "/nonexistent-exports"]] {
            let readOnly = try ChurnCommand.run(command + ["--reports-root", "/etc/hostname/reports"])
            #expect(readOnly.status == 64, "\(readOnly.stderr)")
            #expect(readOnly.stderr.split(separator: "\n").count == 1 && !readOnly.stderr.contains("USAGE"))
            #expect(readOnly.stderr.contains("/etc/hostname is a file, not a directory"))
        }

        let workspace = try NightlyTests.Workspace()
        let garbage = workspace.exports.appendingPathComponent("day2.jsonl")
        try Data("not a notification\n".utf8).write(to: garbage)
        let run = try workspace.nightly(["--log-format", "json", "--log-level", "info", "--max-rejects", "0"])
        #expect(run.status == 2)
        let records = try objects(run)
        let nightly = try #require(records.first { $0["message"] as? String == "nightly run" })
        #expect(nightly["files.new"] as? Int == 2)
        let loaded = try #require(records.first { $0["message"] as? String == "file loaded" })
        #expect(loaded["file.records"] is Int)
        let warning = try #require(records.first { $0["level"] as? String == "warning" })
        #expect((warning["message"] as? String)?.contains("more than --max-rejects 0") == true)
    }

    @Test func filesNamedByOptionsSayWhatIsWrongWithWhichFile() throws {
        let binary = try Self.binaryFile()
        Self.expectError(
            try ChurnCommand.run(["report", "--reports-root", binary.path]), status: 64,
            "--reports-root \(binary.path): \(binary.path) is a file, not a directory."
        )
        Self.expectError(
            try ChurnCommand.run(["nightly", "--reports-root", binary.path + "/reports", "/tmp"]), status: 64,
            "\(binary.path) is a file, not a directory."
        )
        let loaded = try Loaded()
        Self.expectError(
            try loaded.churn(["report", "--schedule", binary.path]), status: 64,
            "--schedule \(binary.path): not a text file (its bytes are not UTF-8)."
        )
        let trust = try loaded.churn(["load", "--trust-root", binary.path, "/dev/null"])
        Self.expectError(trust, status: 64, "trust root \(binary.path) is neither DER nor PEM with a CERTIFICATE block")
        #expect(!trust.stderr.contains("JWS refused"))
    }

    @Test func summariesSayWhatHappened() throws {
        let loaded = try Loaded()
        let binary = try Self.binaryFile()
        let trust = NightlyTests.fixtures.appendingPathComponent("testCA.der").path
        let random = try loaded.churn(["load", "--trust-root", trust, "--max-rejects", "100", binary.path])
        #expect(random.status == 0, "\(random.stderr)")
        #expect(random.stdout.contains("signatures: none checked (no input reached verification)"), "\(random.stdout)")
        #expect(!random.stdout.contains("signatures: verified"))

        let full = try loaded.churn(["analyze", "--full", "--environment", "Sandbox"])
        #expect(full.status == 0)
        #expect(
            full.stdout.contains(
                "Sandbox: rebuilt every subscription of 2 file(s): 1 subscription(s) from 5 notifications"),
            "\(full.stdout)")
        #expect(!full.stdout.contains("new file"))
    }

    @Test func countsAndContradictionsAreRefusedInPlainWords() throws {
        Self.expectError(
            try ChurnCommand.run(["query", "episodes", "--limit", "-1"]), status: 64,
            "--limit must be 1 or more, not -1."
        )
        Self.expectError(
            try ChurnCommand.run(["load", "--max-rejects", "-1", "/dev/null"]), status: 64,
            "--max-rejects must be 0 or more, not -1."
        )
        Self.expectError(
            try ChurnCommand.run(["query", "episodes", "--trial-conversion", "--paid-renewal"]), status: 64,
            "--trial-conversion and --paid-renewal exclude each other: give at most one."
        )
        Self.expectError(
            try ChurnCommand.run(["help", "nosuch"]), status: 64, "no help topic 'nosuch': churn has nightly, load"
        )
        Self.expectError(
            try ChurnCommand.run(["help", "query", "nosuch"]), status: 64, "churn query has recovery-rate"
        )
        let help = try ChurnCommand.run(["help", "query", "episodes"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: churn query episodes"))
    }

    @Test func expectNewFailsWith5WhenNoNewExportArrived() throws {
        let workspace = try NightlyTests.Workspace()
        #expect(try workspace.nightly(["--expect-new"]).status == 0)
        let again = try workspace.nightly(["--expect-new"])
        Self.expectError(again, status: 5, "no new export file arrived (--expect-new): 1 file(s) under")
        let nothingMatches = try workspace.nightly(["--expect-new", "--glob", "*.nothing"])
        Self.expectError(nothingMatches, status: 5, "no file under")
        #expect(nothingMatches.stderr.contains("matches --glob *.nothing (1 other file(s) there)"))
        // Without --expect-new it still says what it left: on stdout, since nothing else was there to load.
        let quiet = try workspace.nightly(["--glob", "*.nothing"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.contains("not loaded: 1 file(s) matching no --glob pattern (*.nothing): day1.jsonl"))
        // An empty directory says so.
        let empty = workspace.root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let nothing = try ChurnCommand.run(
            [
                "nightly", "--expect-new", "--database-url", workspace.schema.url, "--environment", "Sandbox",
                "--reports-root", workspace.reportsRoot.path, empty.path,
            ])
        Self.expectError(nothing, status: 5, "no new export file arrived (--expect-new): no file under")
        #expect(nothing.stderr.contains("empty at all"), "\(nothing.stderr)")

        // Yesterday's export sent again under another name: a new file, but no new notification.
        let resent = workspace.exports.appendingPathComponent("day2.jsonl")
        let lines = try String(contentsOf: workspace.exports.appendingPathComponent("day1.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        try Data((lines.reversed().joined(separator: "\n") + "\n").utf8).write(to: resent)
        Self.expectError(
            try workspace.nightly(["--expect-new"]), status: 5,
            "no new notification arrived (--expect-new): the 1 new file(s) under")
        #expect(try workspace.nightly().status == 0)
    }

    @Test func aQuietNightlyPrintsNothingOnStdoutUnlessAsked() throws {
        let workspace = try NightlyTests.Workspace()
        let first = try workspace.nightly()
        #expect(first.status == 0)
        #expect(first.stdout.isEmpty, "\(first.stdout)")
        let verbose = try workspace.nightly(["--verbose"])
        #expect(verbose.stdout.contains("no new export files (1 already loaded)"))
        #expect(verbose.stdout.contains("rebuilt 0 subscription(s); wrote"))
        try Data("not a notification\n".utf8).write(to: workspace.exports.appendingPathComponent("day2.jsonl"))
        let rejected = try workspace.nightly(["--max-rejects", "5"])
        #expect(rejected.status == 0)
        #expect(rejected.stdout.contains("day2.jsonl:1: not_json"), "\(rejected.stdout)")
    }

    @Test func everyHelpFitsEightyColumnsAndSaysEachDefaultOnce() throws {
        let commands: [[String]] = [
            [], ["nightly"], ["load"], ["analyze"], ["report"], ["query"], ["query", "episodes"],
            ["query", "recovery-rate"], ["query", "message-bands"], ["simulate"], ["migrate"], ["db"], ["db", "start"],
            ["db", "stop"], ["db", "status"], ["db", "url"], ["messages"], ["messages", "load"],
            ["query", "message-log"], ["query", "message-experiment"],
        ]
        for command in commands {
            let help = try ChurnCommand.run(command + ["--help"])
            #expect(help.status == 0, "\(command)")
            for line in help.stdout.split(separator: "\n") {
                #expect(line.count <= 80, "\(command): \(line)")
            }
            let text = help.stdout.replacingOccurrences(of: "\n", with: " ")
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(text.firstRange(of: /\(default: [^)]*\)\.? \(default:/) == nil, "\(command): \(text)")
            #expect(!text.contains("trace, debug, info, notice, warning, error, critical. (values"))
        }
        let root = try ChurnCommand.run(["--help"]).stdout
        for code in [
            "3   churn db status", "4   churn db status", "5   churn nightly --expect-new: no new notification",
            "77  the database refused the credentials",
        ] {
            #expect(root.contains(code), "\(code)")
        }
        #expect(try ChurnCommand.run(["simulate", "--help"]).stdout.contains("ten storefronts (USA, GBR, DEU"))
    }
}
