import Foundation
import PGClient
import TestSupport
import Testing

/// What a report compares with: only dated reports of the same environment and database.
@Suite struct ReportHistoryTests {
    static let repository = Repository.root

    /// Sandbox reports of the workspace's database into its reports root.
    static func report(_ workspace: NightlyTests.Workspace, _ extra: [String] = []) throws -> ChurnCommand.Result {
        try ChurnCommand.run(
            [
                "report", "--database-url", workspace.schema.url, "--environment", "Sandbox", "--reports-root",
                workspace.reportsRoot.path,
            ] + extra)
    }

    static func summary(_ workspace: NightlyTests.Workspace, _ name: String) throws -> String {
        try String(contentsOf: workspace.reports.appendingPathComponent("\(name)/summary.md"), encoding: .utf8)
    }

    static func headline(_ directory: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("headline.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Writes the checked-in example's `headline.json` into `directory`, with the environment and as-of time given
    /// and with its database or none (as a report written before reports recorded it): a report of other data.
    static func plantExample(in directory: URL, environment: String, asOf: Int64, keepDatabase: Bool) throws {
        var headline = try headline(repository.appendingPathComponent("docs/example-report"))
        headline["environment"] = environment
        headline["as_of"] = asOf
        if !keepDatabase { headline["database_id"] = nil }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: headline, options: [.sortedKeys])
            .write(to: directory.appendingPathComponent("headline.json"))
    }

    @Test func onlyDatedReportsOfTheSameDatabaseAndEnvironmentAreHistory() throws {
        let workspace = try NightlyTests.Workspace()
        // 2024-07-01 and 2024-07-02 (UTC noon): before the workspace's data, which reach 2024-07-19.
        let july1: Int64 = 1_719_835_200_000
        // The example where a newcomer's old checkout kept it, as a Sandbox report of July 2 that names no
        // database: only its directory's name keeps it out …
        try Self.plantExample(
            in: workspace.reports.appendingPathComponent("example"), environment: "Sandbox", asOf: july1 + 86_400_000,
            keepDatabase: false)
        // … and as a dated Sandbox report of another database: only its database keeps it out.
        let dated = workspace.reports.appendingPathComponent("2024-07-01")
        try Self.plantExample(in: dated, environment: "Sandbox", asOf: july1, keepDatabase: true)
        let exampleDatabase = try #require(try Self.headline(dated)["database_id"] as? String)

        let first = try workspace.nightly()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("previous report"), "\(first.stderr)")
        let firstSummary = try Self.summary(workspace, "latest")
        #expect(!firstSummary.contains("Changes since the previous report"))

        // The report records its database, which is not the example's.
        let written = try Self.headline(workspace.reports.appendingPathComponent("latest"))
        let database = try workspace.schema.connect().execute("SELECT id::text FROM database_identity").scalar
        #expect(written["database_id"] as? String == database)
        #expect(database != nil && database != exampleDatabase)

        // A report asked for by hand as of an earlier day is not history: the next report does not compare with it.
        let earlier = try Self.report(workspace, ["--as-of", "2024-07-10"])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        #expect(earlier.stdout.contains("wrote \(workspace.reports.path)/2024-07-10/"))
        let earlierDirectory = workspace.reports.appendingPathComponent("2024-07-10")
        #expect(try Self.headline(earlierDirectory)["as_of_given"] as? Bool == true)
        let notCompared = try Self.report(workspace)
        #expect(notCompared.status == 0, "\(notCompared.stderr)")
        #expect(!(try Self.summary(workspace, "latest")).contains("Changes since the previous report"))

        // An earlier report as of its latest data (as a nightly run that day wrote it) of this database and
        // environment is history.
        var nightlyHeadline = try Self.headline(earlierDirectory)
        nightlyHeadline["as_of_given"] = nil
        try JSONSerialization.data(withJSONObject: nightlyHeadline, options: [.sortedKeys])
            .write(to: earlierDirectory.appendingPathComponent("headline.json"))
        let again = try Self.report(workspace)
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try Self.summary(workspace, "latest")
        #expect(summary.contains("## Changes since the previous report"))
        #expect(summary.contains("The previous report is as of 2024-07-10 23:59 UTC."))
        #expect(!summary.contains("another database"))

        // A report of the Production environment of the same database does not compare with them.
        let production = try ChurnCommand.run(
            [
                "report", "--database-url", workspace.schema.url, "--reports-root", workspace.reportsRoot.path, "--out",
                workspace.root.appendingPathComponent("production").path,
            ])
        #expect(production.status == 0, "\(production.stderr)")
        let productionSummary = try String(
            contentsOf: workspace.root.appendingPathComponent("production/summary.md"), encoding: .utf8)
        #expect(!productionSummary.contains("Changes since the previous report"))
    }

    /// `churn report` as of the latest data, in its dated directory, is the report the nightly would write: it moves
    /// its environment's `latest` too (once only the nightly did). One with --as-of or --out leaves `latest` alone.
    @Test func aReportAsTheNightlyWouldWriteItMovesLatest() throws {
        let workspace = try NightlyTests.Workspace()
        let latest = workspace.reports.appendingPathComponent("latest")
        let loaded = try ChurnCommand.run(
            [
                "load", "--database-url", workspace.schema.url, "--trust-root",
                NightlyTests.fixtures.appendingPathComponent("testCA.der").path,
                workspace.exports.appendingPathComponent("day1.jsonl").path,
            ])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let earlier = try Self.report(workspace, ["--as-of", "2024-07-10"])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        #expect(!FileManager.default.fileExists(atPath: latest.path))
        let current = try Self.report(workspace)
        #expect(current.status == 0, "\(current.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest.path) == "2024-07-19")
        let elsewhere = try Self.report(workspace, ["--as-of", "2024-07-10"])
        #expect(elsewhere.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest.path) == "2024-07-19")
    }

    @Test func theExampleLivesOutsideTheReportsRoot() throws {
        let example = Self.repository.appendingPathComponent("docs/example-report")
        #expect(FileManager.default.fileExists(atPath: example.appendingPathComponent("summary.md").path))
        #expect(!FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent("reports/example").path))
        #expect(try Self.headline(example)["database_id"] is String)
    }
}
