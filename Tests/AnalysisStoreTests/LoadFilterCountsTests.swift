import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import PGClient
import TestPKI
import TestSupport
import Testing

/// What a load's `--environment` and `--bundle-id` leave out reaches the report's data quality: a notification of
/// another environment as `outside_environment`, one of another app as `outside_bundle`, one of the report's own
/// environment that `--environment` left out as `rejected_wrong_environment`; each once, and only when signed by the
/// as-of time.
@Suite struct LoadFilterCountsTests {
    @Test func filteredNotificationsCountAsOutsideOnceAndBySignedDate() async throws {
        var stories = try SignedStories(name: "Filters")
        let schema = try TestDatabase.makeSchema("filters")
        let writer = try schema.migrated()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("filters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let ours = try stories.line("A", "DID_FAIL_TO_RENEW", at: 10, expires: 10)
        let otherApp = try stories.line("B", "DID_FAIL_TO_RENEW", at: 11, expires: 11, bundleId: "com.example.other")
        let sandbox = try stories.line("C", "DID_FAIL_TO_RENEW", at: 12, expires: 12, environment: "Sandbox")
        let lateSandbox = try stories.line("D", "DID_RENEW", at: 30, expires: 60, environment: "Sandbox")
        // The same other-app notification twice: one notification left out.
        let lines = [ours, otherApp, otherApp, sandbox, lateSandbox]
        let path = directory.appendingPathComponent("mixed.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: path)

        func load(environment: String) async throws -> LoadSummary {
            let policy = AcceptancePolicy(
                verifier: JWSVerifier(trustRoots: [stories.root.root]), bundleID: "com.example",
                environment: environment
            )
            let options = LoadOptions(policy: policy, workers: 2, command: "test")
            return try await Loader(connection: writer, options: options, logger: .test).load([path.path])
        }
        let production = try await load(environment: "Production")
        #expect(production.loaded == 1)
        #expect(production.rejectedByReason == ["wrong_bundle_id": 2, "wrong_environment": 2])

        let store = StoredDataset(connection: writer)
        let asOf20 = try store.loadQuality(environment: "Production", asOf: SignedStories.day(20))
        #expect(asOf20.counts.outsideBundle == 1)
        #expect(asOf20.counts.outsideEnvironment == 1)
        #expect(asOf20.rejections.isEmpty)
        let asOf40 = try store.loadQuality(environment: "Production", asOf: SignedStories.day(40))
        #expect(asOf40.counts.outsideEnvironment == 2)
        // The Sandbox report: the Sandbox notifications are its own, and --environment Production left them out.
        let sandboxReport = try store.loadQuality(environment: "Sandbox", asOf: SignedStories.day(40))
        #expect(sandboxReport.rejections == ["wrong_environment": 2])
        #expect(sandboxReport.counts.outsideBundle == 0 && sandboxReport.counts.outsideEnvironment == 1)

        // Loaded again for Sandbox: its notifications are stored, and their refusals resolved.
        let sandboxLoad = try await load(environment: "Sandbox")
        #expect(sandboxLoad.loaded == 2)
        let resolved = try store.loadQuality(environment: "Sandbox", asOf: SignedStories.day(40))
        #expect(resolved.rejections.isEmpty)
        #expect(
            try store.loadQuality(environment: "Production", asOf: SignedStories.day(40)).counts.outsideEnvironment == 0
        )
    }
}
