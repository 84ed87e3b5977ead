import Foundation
import Testing
import TestSupport

/// A simulated export run through the whole product (simulate, nightly, report) gives, per cohort, exactly the
/// episodes and outcomes the simulator says it simulated.
@Suite struct SimulatedTruthTests {
    @Test func theReportAgreesWithTheSimulatorsGroundTruthPerCohort() throws {
        let schema = try TestDatabase.makeSchema("truth")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString)")
        let exports = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let export = exports.appendingPathComponent("export.jsonl")
        let simulate = try ChurnCommand.run(
            ["simulate", "--subscribers", "250", "--seed", "99", "--months", "8", "--grace", "mixed", "--out", export.path]
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
        var truthLines = truthText.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = truthLines.removeFirst()
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let environment = try column("environment")
        let ownership = try column("ownership")
        let cohortColumn = try column("cohort")
        let outcome = try column("outcome")
        var truth: [String: [String: Int]] = [:]
        for fields in truthLines where fields[environment] == "Production" && fields[ownership] == "PURCHASED" {
            truth[fields[cohortColumn], default: [:]][fields[outcome], default: 0] += 1
            truth[fields[cohortColumn], default: [:]]["episodes", default: 0] += 1
        }
        #expect(!truth.isEmpty)

        // The report: the per-cohort total rows of recovery_by_cohort.csv.
        let csv = try String(contentsOf: reports.appendingPathComponent("latest/recovery_by_cohort.csv"), encoding: .utf8)
        var rows = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let names = rows.removeFirst()
        var reported: [String: [String: Int]] = [:]
        for row in rows where row[1] == "(all)" && row[0] != "(all)" {
            for name in ["episodes", "recovered", "expired", "cancelled", "other", "open"] {
                let value = Int(row[try #require(names.firstIndex(of: name))]) ?? -1
                if value > 0 { reported[row[0], default: [:]][name] = value }
            }
        }
        #expect(reported == truth)
    }
}
