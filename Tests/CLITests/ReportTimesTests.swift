import Foundation
import TestSupport
import Testing

/// Times in the report for people are to the minute; the files for machines keep the exact instant.
@Suite struct ReportTimesTests {
    static func headline(_ directory: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("headline.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func peopleReadTimesToTheMinuteAndFilesKeepTheInstant() throws {
        let workspace = try NightlyTests.Workspace()
        let nightly = try workspace.nightly()
        #expect(nightly.status == 0, "\(nightly.stderr)")
        let written = try Self.headline(workspace.reports.appendingPathComponent("latest"))
        let asOf = try #require((written["as_of"] as? NSNumber)?.int64Value)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let minute = formatter.string(from: Date(timeIntervalSince1970: Double(asOf) / 1000)) + " UTC"

        let summary = try String(
            contentsOf: workspace.reports.appendingPathComponent("latest/summary.md"), encoding: .utf8)
        #expect(summary.hasPrefix("# Involuntary churn: Sandbox, as of \(minute)\n"), "\(summary.prefix(80))")
        // No time in the summary has seconds or milliseconds, nor the ISO 8601 `T`.
        #expect(summary.range(of: #"\d{2}:\d{2}:\d{2}"#, options: .regularExpression) == nil)
        #expect(summary.range(of: #"\d{4}-\d{2}-\d{2}T\d{2}"#, options: .regularExpression) == nil)

        let report = try ChurnCommand.run(
            [
                "report", "--database-url", workspace.schema.url, "--environment", "Sandbox", "--reports-root",
                workspace.reportsRoot.path,
            ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("Sandbox as of \(minute): "), "\(report.stdout)")

        // The episodes as data keep the exact instant.
        let episodes = try ChurnCommand.run(
            [
                "query", "episodes", "--database-url", workspace.schema.url, "--environment", "Sandbox", "--format",
                "csv",
            ])
        #expect(episodes.status == 0, "\(episodes.stderr)")
        let instant = #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z"#
        #expect(episodes.stdout.range(of: instant, options: .regularExpression) != nil, "\(episodes.stdout)")
    }
}
