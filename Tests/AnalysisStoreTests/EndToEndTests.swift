import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import Logging
import PGClient
import Reports
import TestSupport
import Testing

/// The billing-lifecycle sample, loaded from its real signed payloads into PostgreSQL, analyzed and reported,
/// must give exactly the report files expected for it (the golden files of the report tests, built there from
/// hand-written events).
@Suite struct EndToEndTests {
    static let repository = Repository.root
    static let samples = repository.appendingPathComponent("Tests/IngestTests/Fixtures")
    static let expected = repository.appendingPathComponent("Tests/ReportsTests/Fixtures/expected/billing-lifecycle")

    @Test func billingLifecycleReportMatchesTheExpectedFiles() async throws {
        let schema = try TestDatabase.makeSchema("e2e")
        let writer = try schema.migrated()
        let reader = try schema.connect()
        let names = [
            "01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws", "02_GRACE_PERIOD_EXPIRED.jws", "03_DID_RENEW_BILLING_RECOVERY.jws",
            "04_DID_FAIL_TO_RENEW.jws", "05_EXPIRED_BILLING_RETRY.jws",
        ]
        var lines = try names.map {
            try String(contentsOf: Self.samples.appendingPathComponent($0), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // One tampered copy: quarantined as bad_signature, which the expected data-quality table counts.
        var parts = lines[0].split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        lines.append(parts.joined(separator: "."))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let export = directory.appendingPathComponent("lifecycle.jsonl")
        try Data((lines.map { "{\"signedPayload\":\"\($0)\"}" }.joined(separator: "\n") + "\n").utf8).write(to: export)

        let testCA = try Data(contentsOf: Self.samples.appendingPathComponent("testCA.der"))
        let verifier = JWSVerifier(trustRoots: try JWSVerifier.trustRoots(parsing: Array(testCA), from: "testCA.der"))
        let summary = try await Loader(
            connection: writer,
            options: LoadOptions(policy: AcceptancePolicy(verifier: verifier), workers: 2, command: "test"),
            logger: .test
        ).load([export.path])
        #expect(summary.loaded == 5)
        #expect(summary.rejectedByReason == ["bad_signature": 1])

        let analyzed = try EpisodeAnalyzer(writer: writer, reader: reader, logger: .test).analyze(
            environment: "Sandbox")
        #expect(analyzed.episodesWritten == 2)
        let store = StoredDataset(connection: writer)
        let asOf = try #require(try store.latestSignedDate())
        #expect(asOf == 1_721_347_200_000)
        let dataset = try store.stored(environment: "Sandbox", asOf: asOf)
        // The forecast check compares with the episodes built as of 61 days earlier.
        let then = try store.build(environment: "Sandbox", asOf: ForecastCheck.checkTime(asOf: asOf), reader: reader)
        let report = Report(
            dataset: dataset,
            options: .init(
                environment: "Sandbox", rejections: try store.loadQuality(environment: "Sandbox", asOf: asOf).rejections
            ),
            forecastCheck: ForecastCheck.check(then: then, now: dataset)
        )
        let output = directory.appendingPathComponent("report")
        try report.write(to: output)
        for name in Report.fileNames {
            let produced = try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8)
            let wanted = try String(contentsOf: Self.expected.appendingPathComponent(name), encoding: .utf8)
            #expect(produced == wanted, "\(name) differs from the expected file")
        }
        // Analysts see the same episodes in psql.
        let rows = try writer.execute(
            """
            SELECT sequence::text, outcome, to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'),
                   to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'), duration::text, has_grace::text,
                   saved_in_grace::text, recovery_price::text, cohort_month
            FROM billing_episodes ORDER BY sequence
            """
        ).rows
        #expect(
            rows == [
                [
                    "1", "recovered", "2024-03-31 00:00", "2024-04-20 00:00", "20 days", "true", "false", "9990",
                    "2024-03",
                ],
                ["2", "expired", "2024-05-20 00:00", "2024-07-19 00:00", "60 days", "false", "false", nil, "2024-05"],
            ]
        )
    }
}
