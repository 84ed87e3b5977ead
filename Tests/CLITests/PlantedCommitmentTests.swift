import Analysis
import Foundation
import PGClient
import TestSupport
import Testing

/// Commitment plans planted by the simulator (`--commitment-rate`) come out of the whole product (simulate, nightly,
/// report) as the simulator decided them: every commitment episode's outcome, end and plan equal the ground truth's,
/// the commitment curve reaches past day 60, and with no commitment planted there is none.
@Suite(.serialized) struct PlantedCommitmentTests {
    /// The stored episodes as the `episodes` view gives them: opening notification → (plan, outcome, end in ms).
    static func storedEpisodes(_ schema: TestDatabase.Schema) throws -> [String: (
        plan: String, outcome: String, end: Int64?
    )] {
        let result = try schema.connect().execute(
            """
            SELECT opening_notification_uuid::text AS opening, billing_plan, outcome,
                   (extract(epoch FROM end_at) * 1000)::bigint::text AS end_ms
            FROM episodes WHERE environment = 'Production'
            """)
        let fields = (
            opening: try result.field("opening"), plan: try result.field("billing_plan"),
            outcome: try result.field("outcome"), end: try result.field("end_ms")
        )
        var episodes: [String: (plan: String, outcome: String, end: Int64?)] = [:]
        for row in result.rows {
            episodes[try row.decode(String.self, fields.opening)] = (
                try row.decode(String.self, fields.plan), try row.decode(String.self, fields.outcome),
                try row.decode(String?.self, fields.end).flatMap { Int64($0) }
            )
        }
        return episodes
    }

    @Test func plantedCommitmentEpisodesAreFoundAsTheTruthHasThem() throws {
        let (reports, exports, schema) = try PlantedReturnsTests.run(
            "commitment", ["--subscribers", "3000", "--seed", "41", "--months", "18", "--commitment-rate", "0.3"])
        let headline =
            try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("headline.json")))
            as? [String: Any]
        let asOf = try #require((headline?["as_of"] as? NSNumber)?.int64Value)

        var truth = try PlantedReturnsTests.rows(exports.appendingPathComponent("export.truth.csv"))
        let header = truth.removeFirst()
        #expect(header.suffix(2) == ["billing_plan", "installments_at_risk"])
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let (environment, ownership, opening) = (
            try column("environment"), try column("ownership"), try column("opening_uuid")
        )
        let (outcome, start, end, inferred, plan) = (
            try column("outcome"), try column("start_ms"), try column("end_ms"), try column("end_inferred"),
            try column("billing_plan")
        )
        let stored = try Self.storedEpisodes(schema)
        var compared = 0
        var recoveredAfterDay60 = 0
        var expiredAtDay90 = 0
        for fields in truth where fields[environment] == "Production" && fields[ownership] == "PURCHASED" {
            guard fields[plan] == "commitment" else {
                #expect(fields[plan] == "standard")
                continue
            }
            let t0 = try #require(Int64(fields[start]))
            // An expiry never notified is known once its retry window is over at the report's as-of time.
            if fields[inferred] == "true", t0 + 91 * Milliseconds.day > asOf { continue }
            let episode = try #require(stored[fields[opening]], "episode \(fields[opening]) is stored")
            #expect(episode.plan == "commitment", "\(fields[opening])")
            #expect(episode.outcome == fields[outcome], "\(fields[opening])")
            #expect(episode.end == Int64(fields[end]), "\(fields[opening])")
            compared += 1
            if let ended = Int64(fields[end]), fields[outcome] == "recovered", ended - t0 > 60 * Milliseconds.day {
                recoveredAfterDay60 += 1
            }
            if fields[outcome] == "expired", Int64(fields[end]).map({ $0 - t0 >= 90 * Milliseconds.day }) == true {
                expiredAtDay90 += 1
            }
        }
        #expect(compared > 100, "\(compared) commitment episodes compared")
        #expect(recoveredAfterDay60 > 0)
        #expect(expiredAtDay90 > 0)
        // Every standard episode of the truth is stored as standard.
        #expect(stored.values.filter { $0.plan == "commitment" }.count >= compared)

        // The commitment curve, days 1…90, recovers past day 60.
        let curve = try PlantedReturnsTests.rows(reports.appendingPathComponent("recovery_curve_commitment.csv"))
        #expect(curve.first == ["day", "at_risk", "recovered", "cif_recovery"])
        #expect(curve.count == 91)
        let day60 = try #require(Double(curve[60][3]))
        let day90 = try #require(Double(curve[90][3]))
        #expect(day90 > day60)
        #expect(try #require(Int(curve[61][1])) > 0)
        // The standard curve keeps its 60 days.
        #expect(try PlantedReturnsTests.rows(reports.appendingPathComponent("recovery_curve.csv")).count == 61)
        let revenue = try PlantedReturnsTests.rows(reports.appendingPathComponent("revenue.csv"))
        #expect(
            revenue.first?.suffix(3) == [
                "commitment_open_episodes", "commitment_amount_at_risk", "commitment_amount_lost",
            ])
        let open = try PlantedReturnsTests.rows(reports.appendingPathComponent("open_episodes.csv"))
        #expect(open.dropFirst().contains { $0.suffix(2).first == "commitment" })
        // Apple applies no grace to commitments, and the simulator plants none.
        let quality = try PlantedReturnsTests.rows(reports.appendingPathComponent("data_quality.csv"))
        #expect(!quality.contains { $0.first == "commitment_grace" })
    }

    @Test func noCommitmentPlantedNoneFound() throws {
        let (reports, exports, schema) = try PlantedReturnsTests.run(
            "nocommitment", ["--subscribers", "400", "--seed", "42", "--months", "12", "--commitment-rate", "0"])
        let header = try #require(
            try PlantedReturnsTests.rows(exports.appendingPathComponent("export.truth.csv")).first)
        #expect(!header.contains("billing_plan"))
        #expect(
            !FileManager.default.fileExists(
                atPath: reports.appendingPathComponent("recovery_curve_commitment.csv").path))
        let stored = try Self.storedEpisodes(schema)
        #expect(stored.count > 10)
        #expect(stored.values.allSatisfy { $0.plan == "standard" })
    }
}
