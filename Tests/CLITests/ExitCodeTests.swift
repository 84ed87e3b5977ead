import Foundation
import TestSupport
import Testing

/// Exit codes and messages a cron job and a person rely on.
@Suite struct ExitCodeTests {
    @Test func anUnreachableDatabaseGivesItsCodeAndNamesTheHostNotThePassword() throws {
        let result = try ChurnCommand.run(
            ["migrate", "--database-url", "postgresql://churn:hunter2-secret@127.0.0.1:1/churn?connect_timeout=2"]
        )
        #expect(result.status == 69)
        #expect(result.stderr.contains("127.0.0.1"))
        #expect(!result.stderr.contains("hunter2-secret"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// A database URL that libpq would read as a database's name is refused as configuration (78), not reported
    /// as a server that cannot be reached (69); the password of a URL of another scheme is not repeated.
    @Test(arguments: [
        ("https://churn:hunter2-secret@example.com/db", "invalid URI scheme https://"),
        ("not a url", "invalid URI \"not a url\""),
    ])
    func aDatabaseURLThatIsNoneGives78(url: String, message: String) throws {
        let result = try ChurnCommand.run(["migrate", "--database-url", url])
        #expect(result.status == 78)
        #expect(result.stderr.contains(message))
        #expect(!result.stderr.contains("hunter2-secret"))
    }

    @Test func badUsageGives64() throws {
        #expect(try ChurnCommand.run(["load", "--no-such-flag"]).status == 64)
        let missing = try ChurnCommand.run(["load", "/nonexistent/export.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot read /nonexistent/export.jsonl: No such file or directory."))
    }

    @Test func unusableFilesAreNamedWithTheSystemsReason() throws {
        let cases: [(arguments: [String], message: String)] = [
            (
                ["simulate", "--out", "/dev/null/dir/export.jsonl"],
                "--out /dev/null/dir/export.jsonl: cannot write to /dev/null/dir: /dev/null is a file, not a directory."
            ),
            (
                ["simulate", "--recovery-hazard", "/nonexistent/hazard.txt"],
                "cannot read /nonexistent/hazard.txt: No such file or directory."
            ),
            (
                ["load", "--trust-root", "/nonexistent/root.der", "/dev/null"],
                "cannot read trust root /nonexistent/root.der: No such file or directory."
            ),
            (
                ["report", "--schedule", "/nonexistent/schedule.txt"],
                "cannot read schedule file /nonexistent/schedule.txt: No such file or directory."
            ),
            // Where the report goes is checked before anything is loaded or analysed: the database named here
            // cannot even be reached.
            (
                ["report", "--out", "/dev/null/r", "--database-url", "postgresql://nobody@127.0.0.1:1/none"],
                "--out /dev/null/r: /dev/null is a file, not a directory."
            ),
            (
                [
                    "nightly", "--reports-root", "/dev/null/r", "--database-url",
                    "postgresql://nobody@127.0.0.1:1/none", "/tmp",
                ],
                "--reports-root /dev/null/r: /dev/null is a file, not a directory."
            ),
        ]
        for (arguments, message) in cases {
            let result = try ChurnCommand.run(arguments)
            // A file an option names is part of the usage: 64 when it is missing or unusable.
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test func rejectsAboveTheThresholdGive2AndTheGoodRowsStay() throws {
        let schema = try TestDatabase.makeSchema("rejects")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rejects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("IngestTests/Fixtures")
        let good = try String(
            contentsOf: fixtures.appendingPathComponent("05_EXPIRED_BILLING_RETRY.jws"), encoding: .utf8
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        let export = directory.appendingPathComponent("export.jsonl")
        try Data("\(good)\nnot a notification\n".utf8).write(to: export)
        let trust = fixtures.appendingPathComponent("testCA.der").path
        let strict = try ChurnCommand.run(["load", "--database-url", schema.url, "--trust-root", trust, export.path])
        #expect(strict.status == 2)
        #expect(strict.stdout.contains("1 new"))
        #expect(strict.stdout.contains("export.jsonl:2: not_json"))
        let lenient = try ChurnCommand.run(
            ["load", "--database-url", schema.url, "--trust-root", trust, "--max-rejects", "1", export.path]
        )
        #expect(lenient.status == 0)
    }

    @Test func helpTeachesTheExitCodes() throws {
        let help = try ChurnCommand.run(["--help"])
        #expect(help.status == 0)
        for code in ["2", "3", "4", "5", "64", "66", "69", "75", "77", "78"] { #expect(help.stdout.contains(code)) }
    }
}
