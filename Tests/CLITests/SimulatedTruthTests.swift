import Foundation
import TestSupport
import Testing

/// A simulated export run through the whole product (simulate, nightly, report) gives, per cohort, exactly the
/// episodes and outcomes the simulator says it simulated, and per currency the money its truth adds up to.
@Suite struct SimulatedTruthTests {
    @Test func theReportAgreesWithTheSimulatorsGroundTruthPerCohort() throws {
        let schema = try TestDatabase.makeSchema("truth")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString)")
        let exports = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let export = exports.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            [
                "simulate", "--subscribers", "250", "--seed", "99", "--months", "8", "--grace", "mixed",
                "--missing-expiry-rate", "0.1", "--late-failure-notice-rate", "0.1", "--out", export.path,
            ]
        )
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let reports = directory.appendingPathComponent("reports")
        let nightly = try ChurnCommand.run(
            [
                "nightly", "--database-url", schema.url, "--trust-root",
                exports.appendingPathComponent("export.root.der").path, "--reports-root", reports.path, exports.path,
            ]
        )
        #expect(nightly.status == 0, "\(nightly.stderr)")

        // The truth: Production episodes of purchasers, counted per cohort and outcome.
        let truthText = try String(contentsOf: exports.appendingPathComponent("export.truth.csv"), encoding: .utf8)
        var truthLines = truthText.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = truthLines.removeFirst()
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let environment = try column("environment")
        let ownership = try column("ownership")
        let cohortColumn = try column("cohort")
        let outcome = try column("outcome")
        let start = try column("start_ms")
        let endInferred = try column("end_inferred")
        let recoveryPrice = try column("recovery_price")
        let recoveryCurrency = try column("currency")
        let stakePrice = try column("stake_price")
        let stakeCurrency = try column("stake_currency")
        // The report is as of the latest signedDate, a little before the end of the history the truth describes:
        // an episode is mature, or past its retry window, as of that time.
        let headline =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: reports.appendingPathComponent("latest/headline.json"))) as? [String: Any]
        let asOf = try #require((headline?["as_of"] as? NSNumber)?.int64Value)
        let horizon: Int64 = 61 * 86_400_000
        var truth: [String: [String: Int]] = [:]
        // revenue.csv's episode counts and amounts (milliunits) per currency; the grace saves are left out, as the
        // report infers an undated grace end from the usual length where the truth knows the real one.
        var money: [String: [String: Int64]] = [:]
        for fields in truthLines where fields[environment] == "Production" && fields[ownership] == "PURCHASED" {
            let t0 = try #require(Int64(fields[start]))
            var result = fields[outcome]
            // An expiry never notified is inferred only once its retry window is over.
            if fields[endInferred] == "true", t0 + horizon > asOf { result = "open" }
            switch result {
            case "recovered":
                money[fields[recoveryCurrency], default: [:]]["recovered_episodes", default: 0] += 1
                money[fields[recoveryCurrency], default: [:]]["recovered_amount", default: 0] +=
                    Int64(fields[recoveryPrice]) ?? 0
            case "expired", "open":
                let (episodes, amount) =
                    result == "open"
                    ? ("open_episodes", "at_risk_amount") : ("expired_episodes", "lost_amount")
                money[fields[stakeCurrency], default: [:]][episodes, default: 0] += 1
                money[fields[stakeCurrency], default: [:]][amount, default: 0] += Int64(fields[stakePrice]) ?? 0
            default:
                break
            }
            truth[fields[cohortColumn], default: [:]][result, default: 0] += 1
            truth[fields[cohortColumn], default: [:]]["episodes", default: 0] += 1
            if t0 + horizon <= asOf {
                truth[fields[cohortColumn], default: [:]]["mature_episodes", default: 0] += 1
                if result == "recovered" {
                    truth[fields[cohortColumn], default: [:]]["mature_recovered", default: 0] += 1
                }
            }
        }
        #expect(!truth.isEmpty)
        #expect(truth.values.contains { ($0["mature_episodes"] ?? 0) > 0 })

        // The report: the per-cohort total rows of recovery_by_cohort.csv.
        let csv = try String(
            contentsOf: reports.appendingPathComponent("latest/recovery_by_cohort.csv"), encoding: .utf8)
        var rows = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let names = rows.removeFirst()
        var reported: [String: [String: Int]] = [:]
        for row in rows where row[1] == "(all)" && row[0] != "(all)" {
            for name in [
                "episodes", "recovered", "expired", "cancelled", "other", "open", "mature_episodes", "mature_recovered",
            ] {
                let value = Int(row[try #require(names.firstIndex(of: name))]) ?? -1
                if value > 0 { reported[row[0], default: [:]][name] = value }
            }
        }
        #expect(reported == truth)

        // revenue.csv: amounts in currency units with three decimals, read back as milliunits.
        let revenue = try String(contentsOf: reports.appendingPathComponent("latest/revenue.csv"), encoding: .utf8)
        var revenueRows = revenue.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let revenueNames = revenueRows.removeFirst()
        var reportedMoney: [String: [String: Int64]] = [:]
        for row in revenueRows {
            // The expected columns are estimates from the report's own curve, checked against later outcomes elsewhere.
            for (name, value) in zip(revenueNames, row)
            where name != "currency" && name != "saved_in_grace_amount" && !name.hasPrefix("expected_") {
                let number = Int64(name.hasSuffix("_amount") ? value.replacingOccurrences(of: ".", with: "") : value)
                if let number, number > 0 { reportedMoney[row[0], default: [:]][name] = number }
            }
        }
        #expect(money.values.contains { ($0["lost_amount"] ?? 0) > 0 && ($0["at_risk_amount"] ?? 0) > 0 })
        #expect(reportedMoney == money)
    }
}
