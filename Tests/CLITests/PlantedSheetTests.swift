import Foundation
import TestSupport
import Testing

/// The billing-issue sheet planted by the simulator (`--message-log`, `--sheet-effect`, `--holdout`) comes out of the
/// whole product (simulate, nightly, messages load, report) as planted: the log holds what the truth says was shown,
/// the shown-day ratio finds the planted effect, and the arm shown the sheet recovers more than the holdout.
/// `make validate-sheet` checks the same over ten seeds (docs/VALIDATION-SHEET.md); this is one seed, as a test.
@Suite(.serialized) struct PlantedSheetTests {
    @Test func aPlantedSheetEffectIsFoundInTheLogsFigures() throws {
        let (reports, exports, schema) = try PlantedReturnsTests.run(
            "sheet",
            [
                "--subscribers", "4000", "--seed", "67", "--months", "18", "--message-log", "--holdout", "0.5",
                "--sheet-effect", "2", "--new-purchase-rate", "0",
            ])
        let log = exports.appendingPathComponent("export.messages.csv")
        var events = try PlantedReturnsTests.rows(log)
        #expect(events.removeFirst() == ["original_transaction_id", "app_account_token", "at", "action", "arm"])
        #expect(Set(events.map { $0[4] }) == ["sheet", "holdout"])
        #expect(events.allSatisfy { ($0[4] == "holdout") == ($0[3] == "suppressed") })
        #expect(events.contains { $0[0].isEmpty && !$0[1].isEmpty }, "some events name the token alone")

        // The truth's shown days of the purchasers' episodes are the log's shown events.
        var truth = try PlantedReturnsTests.rows(exports.appendingPathComponent("export.truth.csv"))
        let header = truth.removeFirst()
        #expect(header.suffix(2) == ["sheet_arm", "shown_days"])
        let ownership = try #require(header.firstIndex(of: "ownership"))
        let shownDays = try #require(header.firstIndex(of: "shown_days"))
        let plantedShown = truth.filter { $0[ownership] == "PURCHASED" }.reduce(0) { total, row in
            total + (row[shownDays].isEmpty ? 0 : row[shownDays].split(separator: ";").count)
        }
        #expect(plantedShown == events.count { $0[3] == "shown" })
        #expect(plantedShown > 500)

        let load = try ChurnCommand.run(["messages", "load", "--database-url", schema.url, log.path])
        #expect(load.status == 0, "\(load.stderr)")
        let reportsRoot = reports.deletingLastPathComponent()
        let report = try ChurnCommand.run(
            ["report", "--database-url", schema.url, "--reports-root", reportsRoot.path])
        #expect(report.status == 0, "\(report.stderr)")

        let shown = try PlantedReturnsTests.rows(reports.appendingPathComponent("message_log.csv"))
        let columns = try #require(shown.first)
        let all = try #require(shown.last)
        func value(_ name: String) throws -> Double {
            let column = try #require(columns.firstIndex(of: name))
            return try #require(Double(all[column]))
        }
        let (low, high) = (try value("hazard_ratio_low"), try value("hazard_ratio_high"))
        #expect(low <= 2 && 2 <= high, "the shown-day ratio's interval \(low)–\(high) holds the planted 2")
        #expect(low > 1, "and excludes 1")

        let arms = try PlantedReturnsTests.rows(reports.appendingPathComponent("message_experiment.csv"))
        #expect(arms.dropFirst().map { $0[0] } == ["holdout", "sheet"])
        let difference = try #require(arms.first?.firstIndex(of: "difference"))
        #expect((Double(arms[2][difference]) ?? 0) > 0, "the arm shown the sheet recovers more")
    }
}
