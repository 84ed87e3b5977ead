import Foundation
import PGClient
import TestSupport
import Testing

/// Every string a user supplies reaches PostgreSQL as a bound parameter (or a quoted literal): SQL fragments in
/// file names, bundle ids and product ids are just values; an environment must be one of Apple's names.
@Suite struct InjectionTests {
    static let fragments = [
        "x'; DROP TABLE notifications; --",
        "\"; DELETE FROM load_runs; --",
        "Sandbox' OR '1'='1",
        "$1); TRUNCATE quarantine; --",
    ]

    @Test(arguments: fragments)
    func sqlInUserInputIsJustAValue(_ fragment: String) throws {
        let schema = try TestDatabase.makeSchema("inject")
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("IngestTests/Fixtures")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inject-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A file name full of SQL.
        let export = directory.appendingPathComponent(
            "export \(fragment.replacingOccurrences(of: "/", with: "_")).jsonl")
        let token = try String(
            contentsOf: fixtures.appendingPathComponent("01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws"), encoding: .utf8
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("\(token)\nnot json\n".utf8).write(to: export)
        let trust = fixtures.appendingPathComponent("testCA.der").path

        let load = try ChurnCommand.run(
            ["load", "--database-url", schema.url, "--trust-root", trust, "--max-rejects", "5", export.path]
        )
        #expect(load.status == 0, "\(load.stderr)")
        // A bundle id full of SQL: the notification is refused as wrong_bundle_id, nothing else happens.
        let filtered = try ChurnCommand.run(
            [
                "load", "--database-url", schema.url, "--trust-root", trust, "--max-rejects", "5", "--bundle-id",
                fragment, export.path,
            ]
        )
        #expect(filtered.status == 0, "\(filtered.stderr)")
        // An environment full of SQL is not one of Apple's names: refused before anything reaches the database.
        let report = try ChurnCommand.run(
            [
                "report", "--database-url", schema.url, "--environment", fragment, "--out",
                directory.appendingPathComponent("r").path,
            ]
        )
        #expect(report.status == 64, "\(report.stderr)")
        // A product id full of SQL is a value no episode has: refused as such (64), and it changes nothing.
        let query = try ChurnCommand.run(
            ["query", "episodes", "--database-url", schema.url, "--environment", "Sandbox", "--product", fragment]
        )
        #expect(query.status == 64, "\(query.stderr)")
        #expect(query.stderr.contains("matches no episode of Sandbox"), "\(query.stderr)")

        let connection = try schema.connect()
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "1")
        #expect(try connection.execute("SELECT count(*) FROM load_runs").scalar == "2")
        let reasons = try connection.execute("SELECT reason FROM quarantine ORDER BY line").rows.compactMap { $0[0] }
        #expect(reasons == ["wrong_bundle_id", "not_json"])
        #expect(try connection.execute("SELECT path FROM source_files ORDER BY id LIMIT 1").scalar == export.path)
        let environments = try connection.execute("SELECT DISTINCT environment FROM analyzed_files").rows
        #expect(environments == [["Sandbox"]])
    }
}
