import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import Logging
import PGClient
import TestPKI
import TestSupport
import Testing

/// The v2 columns of the views (004_metrics_v2.sql) over MetricsV2Story: the view's episodes are the report's
/// (as of the latest signedDate), and its mature columns are counted from them.
@Suite struct V2ViewTests {
    @Test func theEpisodesViewShowsEpisodesAsTheReportDoes() async throws {
        let (connection, dataset) = try await Self.loaded()
        let rows = try connection.execute(
            """
            SELECT original_transaction_id, sequence, outcome, coalesce(recovered_by, '-'),
                   (extract(epoch FROM end_at) * 1000)::int8, end_inferred, mature,
                   (extract(epoch FROM grace_end) * 1000)::int8, grace_end_inferred, saved_in_grace,
                   stake_price, stake_amount, stake_currency, bundle_id, duration_days
            FROM episodes WHERE environment = 'Production' ORDER BY original_transaction_id, sequence
            """
        ).rows
        #expect(rows.count == dataset.episodes.count)
        for (row, episode) in zip(rows, dataset.episodes) {
            let expected: [String?] = [
                episode.subscription, String(episode.sequence), episode.outcome.rawValue,
                episode.recoveredBy?.rawValue ?? "-", episode.end.map { String($0) }, episode.endInferred ? "t" : "f",
                episode.isMature(asOf: dataset.asOf) ? "t" : "f", episode.graceEnd.map { String($0) },
                episode.graceEndInferred ? "t" : "f", episode.isSavedInGrace ? "t" : "f",
                episode.stakePrice.map { String($0) },
                episode.stakePrice.map { String(format: "%.3f", Double($0) / 1000) }, episode.stakeCurrency,
                episode.bundleId,
            ]
            #expect(Array(row.prefix(14)) == expected)
            let days = Double(episode.duration(asOf: dataset.asOf)) / Double(T.day)
            #expect(row[14].flatMap(Double.init).map { abs($0 - days) < 1e-9 } == true, "\(episode.subscription)")
        }
        // O: open in the table, expired on day 80 in the view, as in the report; M ended so by the analysis.
        let o = try connection.execute(
            """
            SELECT b.outcome, e.outcome, e.end_inferred::text, e.duration::text, e.closing_notification_uuid
            FROM billing_episodes b JOIN episodes e USING (environment, original_transaction_id, sequence)
            WHERE original_transaction_id IN ('O', 'M') ORDER BY original_transaction_id
            """
        ).rows
        #expect(o == [["expired", "expired", "true", "60 days", nil], ["open", "expired", "true", "60 days", nil]])
    }

    @Test func recoveryByCohortCountsTheMatureEpisodesWithTheirWilsonInterval() async throws {
        let (connection, dataset) = try await Self.loaded()
        let rows = try connection.execute(
            """
            SELECT cohort_month, product_id, episodes, recovered, expired, open, mature_episodes, mature_recovered,
                   mature_recovery_rate, mature_recovery_rate_low, mature_recovery_rate_high
            FROM recovery_by_cohort WHERE environment = 'Production'
            """
        ).rows
        #expect(rows.count > 4)
        for row in rows {
            let selected = dataset.episodes.filter { episode in
                (row[0] == "(all)" || row[0] == episode.cohortMonth)
                    && (row[1] == "(all)" || row[1] == (episode.productId ?? ""))
            }
            let mature = selected.filter { $0.isMature(asOf: dataset.asOf) }
            let recovered = mature.filter { $0.outcome == .recovered }.count
            let counts = [
                selected.count, selected.filter { $0.outcome == .recovered }.count,
                selected.filter { $0.outcome == .expired }.count, selected.filter(\.isOpen).count, mature.count,
                recovered,
            ]
            #expect(row[2...7].map { Int($0 ?? "") } == counts.map { Optional($0) }, "\(row)")
            let rate = mature.isEmpty ? nil : Double(recovered) / Double(mature.count)
            #expect(row[8].flatMap(Double.init) == rate)
            let interval = ConfidenceInterval.wilson(successes: recovered, trials: mature.count)
            for (value, bound) in [(row[9], interval?.low), (row[10], interval?.high)] {
                #expect(value.flatMap(Double.init).map { abs($0 - (bound ?? .nan)) < 1e-12 } ?? (bound == nil))
            }
        }
        let total = try #require(rows.last)
        // As of day 130, episodes from day 70 on are not mature; of the 13 mature ones, 9 recovered.
        #expect(Array(total[0...1]) == ["(all)", "(all)"])
        #expect(Array(total[6...7]) == ["13", "9"])
    }

    @Test func dailyRecoveryCountsTheReportsCurve() async throws {
        let (connection, dataset) = try await Self.loaded()
        let rows = try connection.execute(
            "SELECT day, at_risk, recovered_cumulative FROM daily_recovery WHERE environment = 'Production'"
        ).rows.map { $0.map { Int($0 ?? "") ?? -1 } }
        let curve = RecoveryCurve.points(episodes: dataset.episodes, asOf: dataset.asOf)
        #expect(rows == curve.map { [$0.day, $0.atRisk, $0.recovered] })
    }

    /// MetricsV2Story loaded and analyzed into a schema of its own, and the stored dataset as of the latest
    /// signedDate (day 130).
    private static func loaded() async throws -> (PGConnection, EpisodeDataset) {
        let (schema, dataset) = try await shared.value.get()
        return (try schema.connect(), dataset)
    }

    private static let shared = Task { () -> Result<(TestDatabase.Schema, EpisodeDataset), FixtureError> in
        do {
            let schema = try TestDatabase.makeSchema("v2views")
            let writer = try schema.migrated()
            let reader = try schema.connect()
            var stories = try SignedStories(name: "V2Views")
            let lines = try MetricsV2Story.lines(&stories)
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("v2views-\(UUID().uuidString).jsonl")
            defer { try? FileManager.default.removeItem(at: path) }
            try Data(((lines.first + lines.second).joined(separator: "\n") + "\n").utf8).write(to: path)
            let options = LoadOptions(
                policy: AcceptancePolicy(verifier: JWSVerifier(trustRoots: [stories.root.root])), workers: 2,
                command: "test"
            )
            _ = try await Loader(connection: writer, options: options, logger: .test).load([path.path])
            try EpisodeAnalyzer(writer: writer, reader: reader, logger: .test).analyze(environment: "Production")
            let store = StoredDataset(connection: writer)
            let asOf = try store.latestSignedDate() ?? 0
            return .success((schema, try store.stored(environment: "Production", asOf: asOf)))
        } catch {
            return .failure(FixtureError(message: "cannot load the v2 story: \(error)"))
        }
    }
}
