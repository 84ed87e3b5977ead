import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import Logging
import PGClient
import Reports
import TestPKI
import TestSupport
import Testing

/// The incremental rebuild must equal a full one, and rebuild only what new loads touched.
@Suite struct IncrementalTests {
    @Test func incrementalRebuildEqualsFullAndTouchesOnlyNewSubscriptions() async throws {
        let schema = try TestDatabase.makeSchema("incr")
        let writer = try schema.migrated()
        let reader = try schema.connect()
        var stories = try SignedStories(name: "Incremental")
        let first = [
            try stories.line("A", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: 30, expires: 30, grace: 46),
            try stories.line("A", "DID_RENEW", "BILLING_RECOVERY", at: 35),
            try stories.line("B", "DID_FAIL_TO_RENEW", at: 40, expires: 40),
            try stories.line("C", "DID_RENEW", at: 10),
            try stories.line("D", "DID_FAIL_TO_RENEW", at: 20, expires: 20),
            try stories.line("D", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: 25),
        ]
        let second = [
            try stories.line("B", "EXPIRED", "BILLING_RETRY", at: 100),
            try stories.line("E", "DID_FAIL_TO_RENEW", at: 90, expires: 90),
            try stories.line("E", "DID_RENEW", "BILLING_RECOVERY", at: 91),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("incr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func load(_ lines: [String], _ name: String) async throws {
            try await stories.load(lines, as: name, in: directory, into: writer)
        }
        let analyzer = EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
        let migratedIndexes = try indexes(writer)

        try await load(first, "first.jsonl")
        let initial = try analyzer.analyze(environment: "Production")
        #expect(initial.subscriptionsRebuilt == 4)
        #expect(try analyzer.analyze(environment: "Production").filesAnalyzed == 0)

        try await load(second, "second.jsonl")
        let incremental = try analyzer.analyze(environment: "Production")
        #expect(incremental.filesAnalyzed == 1)
        #expect(incremental.subscriptionsRebuilt == 2, "only B and E are touched by the second file")
        let afterIncremental = try episodes(writer)

        try analyzer.analyze(environment: "Production", full: true)
        #expect(try episodes(writer) == afterIncremental)
        // The full rebuild dropped the indexes that enforce no key and built them again from the rows.
        #expect(try indexes(writer) == migratedIndexes)
        #expect(migratedIndexes.contains { $0.contains("subscription_links_subscription_idx") })
        #expect(
            afterIncremental == [
                "A|1|recovered|t", "B|1|expired|f", "D|1|cancelled|f", "E|1|recovered|f",
            ]
        )

        // The stored episodes and a fresh build from the notifications give the same report tables.
        let store = StoredDataset(connection: writer)
        let asOf = try #require(try store.latestSignedDate())
        let stored = try store.stored(environment: "Production", asOf: asOf)
        let fresh = try store.build(environment: "Production", asOf: asOf, reader: reader)
        #expect(
            ChurnReport(stored).tables.map(CSVWriter.render) == ChurnReport(fresh).tables.map(CSVWriter.render)
        )
        // An earlier as-of sees only what had happened by then: B is still open on day 60.
        let early = try store.build(
            environment: "Production", asOf: 1_700_000_000_000 + 60 * 86_400_000, reader: reader)
        #expect(
            early.episodes.map { "\($0.subscription)|\($0.outcome.rawValue)" } == [
                "A|recovered", "B|open", "D|cancelled",
            ])
    }

    /// A full rebuild leaves statistics on the tables that later statements join a few keys to (each of them that
    /// holds rows: the customers and the data-quality counts stay empty in this history): without them, the first
    /// incremental analysis after a full rebuild read every link for each touched key.
    @Test func aFullRebuildLeavesStatisticsForTheJoinsAfterIt() async throws {
        let schema = try TestDatabase.makeSchema("stats")
        let writer = try schema.migrated()
        let reader = try schema.connect()
        var stories = try SignedStories(name: "Statistics")
        let lines = [
            try stories.line("A", "SUBSCRIBED", at: 1, transactionFields: ["appTransactionId": "app-1"]),
            try stories.line("A", "DID_FAIL_TO_RENEW", at: 30, expires: 30),
            try stories.line("A", "DID_RENEW", "BILLING_RECOVERY", at: 35),
            try stories.line("B", "SUBSCRIBED", at: 2, transactionFields: ["appTransactionId": "app-2"]),
            try stories.line("B", "DID_RENEW", at: 32),
            try stories.line("B", "DID_FAIL_TO_RENEW", at: 62, expires: 62),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await stories.load(lines, as: "stats.jsonl", in: directory, into: writer)
        let tables = [
            "renewal_months", "subscription_analysis", "subscription_customers", "subscription_links",
            "subscription_purchases", "subscription_renewals",
        ]
        func statistics() throws -> [String] {
            let analyzed = try writer.execute(
                """
                SELECT DISTINCT tablename::text AS name FROM pg_stats
                WHERE schemaname = current_schema() AND tablename = ANY($1) ORDER BY 1
                """,
                [PGArray.texts(tables)]
            )
            let name = try analyzed.field("name")
            return try analyzed.rows.map { try $0.decode(String.self, name) }
        }
        #expect(try statistics().isEmpty, "loading alone analyzes none of them")
        // The first analysis of a database is a full rebuild.
        try EpisodeAnalyzer(writer: writer, reader: reader, logger: .test).analyze(environment: "Production")
        let filled = try tables.filter { try writer.execute("SELECT count(*) FROM \($0)").scalar != "0" }
        #expect(
            Set(filled).isSuperset(of: [
                "renewal_months", "subscription_links", "subscription_purchases", "subscription_renewals",
            ]))
        let analyzed = try statistics()
        #expect(analyzed == filled)
    }

    @Test func fullRebuildOfOneEnvironmentKeepsTheOthers() async throws {
        let schema = try TestDatabase.makeSchema("envs")
        let writer = try schema.migrated()
        let reader = try schema.connect()
        var stories = try SignedStories(name: "Incremental")
        var lines: [String] = []
        for environment in ["Production", "Sandbox"] {
            let subscription = environment == "Production" ? "P" : "S"
            lines.append(
                try stories.line(subscription, "DID_FAIL_TO_RENEW", at: 20, expires: 20, environment: environment)
            )
            lines.append(
                try stories.line(subscription, "DID_RENEW", "BILLING_RECOVERY", at: 22, environment: environment)
            )
            lines.append(try stories.line(subscription, "DID_RENEW", at: 52, environment: environment))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("envs-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: path)
        let options = LoadOptions(
            policy: AcceptancePolicy(verifier: JWSVerifier(trustRoots: [stories.root.root])), workers: 2,
            command: "test"
        )
        _ = try await Loader(connection: writer, options: options, logger: .test).load([path.path])
        let analyzer = EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
        let stored = """
            SELECT environment || '|' || original_transaction_id || '|' || outcome FROM billing_episodes
            UNION ALL SELECT environment || '|' || month || '|' || renewals FROM subscription_renewals ORDER BY 1
            """
        // Day 52's DID_RENEW is a renewal (January 2024); the BILLING_RECOVERY one is not.
        let both = ["Production|2024-01|1", "Production|P|recovered", "Sandbox|2024-01|1", "Sandbox|S|recovered"]
        try analyzer.analyze(environment: "Production")
        try analyzer.analyze(environment: "Sandbox")
        #expect(try writer.execute(stored).rows.compactMap { $0[0] } == both)
        // With another environment stored, a full rebuild deletes its own rows only.
        for environment in ["Production", "Sandbox", "Production"] {
            try analyzer.analyze(environment: environment, full: true)
            #expect(try writer.execute(stored).rows.compactMap { $0[0] } == both, "after --full of \(environment)")
        }
        // Alone in the tables, a full rebuild truncates them and writes the same rows again.
        try writer.execute("DELETE FROM billing_episodes WHERE environment = 'Sandbox'")
        try writer.execute("DELETE FROM subscription_renewals WHERE environment = 'Sandbox'")
        try writer.execute("DELETE FROM subscription_analysis WHERE environment = 'Sandbox'")
        try analyzer.analyze(environment: "Production", full: true)
        #expect(try writer.execute(stored).rows.compactMap { $0[0] } == Array(both.prefix(2)))
    }

    /// The definitions of the schema's indexes, sorted.
    private func indexes(_ connection: PGConnection) throws -> [String] {
        let result = try connection.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexdef")
        let definition = try result.field("indexdef")
        return try result.rows.map { try $0.decode(String.self, definition) }
    }

    private func episodes(_ connection: PGConnection) throws -> [String] {
        try connection.execute(
            """
            SELECT original_transaction_id || '|' || sequence || '|' || outcome || '|' || (CASE WHEN saved_in_grace THEN 't' ELSE 'f' END)
            FROM billing_episodes ORDER BY 1
            """
        ).rows.compactMap { $0[0] }
    }
}
