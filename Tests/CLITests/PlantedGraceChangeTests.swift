import Foundation
import TestSupport
import Testing

/// A change of the app's grace setting that the simulator plants (`--grace-change`) is found in the data, dated, and
/// evaluated in `grace_change.csv` against the weekly product, whose 6 days the change leaves alone; `churn query
/// grace-change` answers with the file's rows, and a change the user states replaces the one found.
@Suite(.serialized) struct PlantedGraceChangeTests {
    @Test func aPlantedChangeFrom16To28DaysIsFoundAndEvaluated() throws {
        let (reports, _, schema) = try PlantedReturnsTests.run(
            "gracechange",
            [
                "--subscribers", "3000", "--seed", "45", "--months", "24", "--start", "2025-01-01", "--grace", "16",
                "--grace-change", "2026-04-01:28",
            ])
        let file = reports.appendingPathComponent("grace_change.csv")
        var rows = try PlantedReturnsTests.rows(file)
        let header = rows.removeFirst()
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row[try column("bundle_id")] == "com.example.app")
        // The first failed renewal under the new setting comes on the day of the change or soon after.
        #expect(row[try column("change_date")].hasPrefix("2026-04-0"), "\(row)")
        #expect(row[try column("setting_before")] == "16")
        #expect(row[try column("setting_after")] == "28")
        #expect(row[try column("products")].split(separator: ";").contains("pro.monthly"), "\(row)")
        #expect(row[try column("comparison")] == "pro.weekly", "\(row)")
        // Expired customers keep access 28 days instead of 16: more free access days, the interval clear of 0; and
        // the payments of days 17 to 28 now keep their billing date: more paid days kept (at 3,000 subscribers the
        // interval of that smaller effect may reach 0).
        let free = try ["did_low", "did", "did_high"].map {
            try #require(Double(row[try column("free_access_days_per_episode_\($0)")]))
        }
        #expect(0 < free[0] && free[0] <= free[1] && free[1] <= free[2], "\(free)")
        let paid = try #require(Double(row[try column("paid_days_kept_per_episode_did")]))
        #expect(paid > 0)
        // The data reach 270 days back: a placebo, where nothing changed.
        #expect(!row[try column("recovered_placebo_did")].isEmpty)

        let query = try ChurnCommand.run(["query", "grace-change", "--format", "csv", "--database-url", schema.url])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout == (try String(contentsOf: file, encoding: .utf8)))

        // In JSON, one object per change, its numbers as numbers.
        let json = try ChurnCommand.run(["query", "grace-change", "--format", "json", "--database-url", schema.url])
        let objects = try JSONValue.objects(json.stdout)
        #expect(objects.count == 1)
        guard case .number = objects.first?["episodes_before"] else {
            Issue.record("episodes_before is not a number: \(json.stdout)")
            return
        }

        // Stated on the day itself, the change is dated that day.
        let stated = try ChurnCommand.run(
            [
                "query", "grace-change", "--format", "csv", "--grace-change", "com.example.app=2026-04-01:28",
                "--database-url", schema.url,
            ])
        #expect(stated.status == 0, "\(stated.stderr)")
        #expect(stated.stdout.contains("\ncom.example.app,2026-04-01T00:00:00.000Z,16,28,"), "\(stated.stdout)")
    }
}
