import Analysis
import Foundation
import PGClient
import TestSupport
import Testing

/// Returns planted by the simulator (`--return-rate`) are found by the whole product (simulate, nightly, report):
/// `returns.csv` holds exactly the expiries and returns of the ground truth, its Kaplan–Meier shares are those of the
/// truth's follow-ups, and the planted rate lies inside the 180-day share's 95 % interval; with no return planted,
/// none is found.
@Suite(.serialized) struct PlantedReturnsTests {
    /// A simulated export through nightly: the report's directory and the export's directory.
    static func run(
        _ label: String, _ arguments: [String]
    ) throws -> (reports: URL, exports: URL, schema: TestDatabase.Schema) {
        let schema = try TestDatabase.makeSchema(label)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        let exports = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let simulate = try ChurnCommand.run(
            ["simulate"] + arguments + ["--out", exports.appendingPathComponent("export.jsonl").path])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let reports = directory.appendingPathComponent("reports")
        let nightly = try ChurnCommand.run(
            [
                "nightly", "--database-url", schema.url, "--trust-root",
                exports.appendingPathComponent("export.root.der").path, "--reports-root", reports.path, exports.path,
            ]
        )
        #expect(nightly.status == 0, "\(nightly.stderr)")
        return (reports.appendingPathComponent("latest"), exports, schema)
    }

    /// The rows of a CSV file without quoted fields, header first.
    static func rows(_ url: URL) throws -> [[String]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func aPlantedReturnRateIsFoundInsideItsInterval() throws {
        let rate = 0.3
        let (reports, exports, schema) = try Self.run(
            "returns",
            [
                "--subscribers", "2000", "--seed", "31", "--months", "24", "--return-rate", "\(rate)",
                "--migration-rate", "0.01",
            ])
        let headline =
            try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("headline.json")))
            as? [String: Any]
        let asOf = try #require((headline?["as_of"] as? NSNumber)?.int64Value)

        // The truth's expired episodes of Production purchasers, as of the report's as-of time (an expiry never
        // notified is inferred once its retry window is over), and the planted returns.
        var truth = try Self.rows(exports.appendingPathComponent("export.truth.csv"))
        let header = truth.removeFirst()
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let (environment, ownership, subscription) = (
            try column("environment"), try column("ownership"), try column("subscription")
        )
        let (outcome, start, end, inferred) = (
            try column("outcome"), try column("start_ms"), try column("end_ms"), try column("end_inferred")
        )
        var expired: [String: Int64] = [:]
        for fields in truth where fields[environment] == "Production" && fields[ownership] == "PURCHASED" {
            guard fields[outcome] == "expired" else { continue }
            let t0 = try #require(Int64(fields[start]))
            if fields[inferred] == "true", t0 + 61 * Milliseconds.day > asOf { continue }
            let e = try #require(Int64(fields[end]))
            expired["\(fields[subscription]) \(e)"] = e
        }
        var planted = try Self.rows(exports.appendingPathComponent("export.returns.csv"))
        #expect(planted.removeFirst() == PlantedReturnColumns.names)
        var returnedAt: [String: Int64] = [:]
        for fields in planted where fields[2] == "Production" {
            let e = try #require(Int64(fields[1]))
            let key = "\(fields[0]) \(e)"
            #expect(expired[key] != nil, "a planted return follows an expiry of the truth: \(key)")
            let back: Int64 = try #require(Int64(fields[4]))
            returnedAt[key] = back
        }
        #expect(returnedAt.count > 50)
        var survival = ReturnSurvival()
        for (key, e) in expired {
            if let back = returnedAt[key] {
                survival.add(.init(time: back - e, returned: true))
            } else {
                survival.add(.init(time: asOf - e, returned: false))
            }
        }
        let days = Returns.horizons.map { Int64($0) * Milliseconds.day }
        let shares = survival.returned(by: days)

        let all = try #require(try Self.rows(reports.appendingPathComponent("returns.csv")).last)
        #expect(all[0] == "(all)")
        #expect(all[1] == String(expired.count))
        #expect(all[2] == String(returnedAt.count))
        for (index, share) in shares.enumerated() {
            #expect(
                all[3 + index] == String(format: "%.6f", try #require(share)), "returned_\(Returns.horizons[index])d")
        }
        // The sampling error of the 180-day share: Greenwood's standard error of the Kaplan–Meier estimate; the
        // planted rate lies inside share ± 1.96 · se.
        let share = try #require(shares[2])
        let error = try #require(survival.standardError(at: days[2]))
        #expect(abs(share - rate) <= ConfidenceInterval.z * error, "\(share) ± \(error)")
        #expect(error < 0.05)
        // The export holds migrations (MIGRATE, with previousOriginalTransactionId), none of them a planted return:
        // the exact count of returns above shows that none was taken for one.
        let migrations = try schema.connect().execute(
            "SELECT count(*) FROM notifications WHERE notification_type = 'MIGRATE' AND previous_original_transaction_id IS NOT NULL"
        ).scalar
        #expect(try #require(Int(migrations ?? "")) > 10)
        let summary = try String(contentsOf: reports.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("## Customers who come back"))
    }

    @Test func noReturnPlantedNoneFound() throws {
        let (reports, exports, _) = try Self.run(
            "noreturns", ["--subscribers", "400", "--seed", "32", "--months", "12", "--return-rate", "0"])
        let rows = try Self.rows(reports.appendingPathComponent("returns.csv"))
        let all = try #require(rows.last)
        #expect(all[0] == "(all)")
        #expect(try #require(Int(all[1])) > 10)
        #expect(all[2] == "0")
        #expect(all[3] == "0.000000")
        #expect(try Self.rows(exports.appendingPathComponent("export.returns.csv")).count == 1, "the header alone")
    }
}

/// The columns of the simulator's `<export>.returns.csv`.
enum PlantedReturnColumns {
    static let names = [
        "expired_subscription", "expired_ms", "environment", "subscription", "returned_ms", "new_subscription",
    ]
}
