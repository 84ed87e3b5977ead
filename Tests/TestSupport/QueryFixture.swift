import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import Logging
import PGClient
import TestPKI

/// A small signed export, loaded and analyzed once into a schema of its own, and the report computed on it.
///
/// Production episodes (day 0 is 2023-11-14T22:13:20Z; days 0–16 fall in November, 17 and later in December):
///
/// | sub | seq | product | storefront | t0 day | grace | outcome | end day | trial | offer |
/// |---|---|---|---|---|---|---|---|---|---|
/// | A | 1 | monthly | USA | 2 | 16 d | recovered (saved in grace), 2990 USD | 5 | | |
/// | B | 1 | monthly | USA | 3 | | expired | 63 | | |
/// | C | 1 | yearly | GBR | 20 | 3 d | recovered after grace, 2990 USD | 30 | yes | 1 |
/// | D | 1 | yearly | GBR | 25 | | cancelled | 27 | | |
/// | E | 1 | monthly | GBR | 1 | | recovered | 2 | | |
/// | E | 2 | monthly | GBR | 22 | 28 d | open | | | |
/// | F | 1 | monthly | USA | 21 | 16 d | recovered (saved in grace), 4990 EUR | 24 | yes | 1 |
/// | G | 1 | yearly | USA | 10 | | other (refund) | 12 | | 3 |
///
/// Z renews on day 70 (the latest signedDate, so the as-of time); S is a Sandbox subscription, open since day 30.
package struct QueryFixture: Sendable {
    package static let base = SignedStories.dayZero
    package static let monthly = "com.example.monthly"
    package static let yearly = "com.example.yearly"

    package let schema: TestDatabase.Schema
    /// The latest signedDate: day 70.
    package let asOf: Int64
    /// The stored Production episodes, as `churn report` reads them.
    package let stored: EpisodeDataset
    /// Rows in `notifications` after loading.
    package let notificationCount: Int

    /// Unix ms of `day` days after day 0.
    /// The bundle id of G, the other app's subscription; every other subscription is `com.example`'s.
    package static let otherApp = "com.example.other"

    package static func day(_ day: Int64) -> Int64 {
        SignedStories.day(day)
    }

    /// The fixture, loaded on first use by any test.
    package static func shared() async throws -> QueryFixture {
        try await loaded.value.get()
    }

    private static let loaded = Task { () -> Result<QueryFixture, FixtureError> in
        do {
            return .success(try await load())
        } catch {
            return .failure(FixtureError(message: "cannot load the query fixture: \(error)"))
        }
    }

    private static func load() async throws -> QueryFixture {
        let schema = try TestDatabase.makeSchema("query")
        let writer = try schema.migrated()
        let reader = try schema.connect()
        var export = try SignedStories(name: "Query")
        let m = monthly
        let y = yearly
        let lines = [
            // A: grace 16 days, saved on day 5.
            try export.line("A", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: 2, product: m, expires: 2, grace: 18),
            try export.line("A", "DID_RENEW", "BILLING_RECOVERY", at: 5, product: m),
            // B: no grace, expired after 60 days.
            try export.line("B", "DID_FAIL_TO_RENEW", at: 3, product: m, expires: 3),
            try export.line("B", "EXPIRED", "BILLING_RETRY", at: 63, product: m),
            // C: trial conversion, grace 3 days, recovered after grace.
            try export.line(
                "C", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: 20, product: y, storefront: "GBR", expires: 20, grace: 23,
                offerType: 1, offerDiscountType: "FREE_TRIAL"
            ),
            try export.line("C", "DID_RENEW", "BILLING_RECOVERY", at: 30, product: y, storefront: "GBR"),
            // D: cancelled during retry.
            try export.line("D", "DID_FAIL_TO_RENEW", at: 25, product: y, storefront: "GBR", expires: 25),
            try export.line(
                "D", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: 27, product: y, storefront: "GBR"),
            // E: recovered after one day, then a repeat episode with 28 days of grace, still open.
            try export.line("E", "DID_FAIL_TO_RENEW", at: 1, product: m, storefront: "GBR", expires: 1),
            try export.line("E", "DID_RENEW", "BILLING_RECOVERY", at: 2, product: m, storefront: "GBR"),
            try export.line(
                "E", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: 22, product: m, storefront: "GBR", expires: 22, grace: 50
            ),
            // F: trial conversion, grace 16 days, saved on day 24 in EUR.
            try export.line(
                "F", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at: 21, product: m, expires: 21, grace: 37, offerType: 1,
                offerDiscountType: "FREE_TRIAL"
            ),
            try export.line("F", "DID_RENEW", "BILLING_RECOVERY", at: 24, product: m, price: 4990, currency: "EUR"),
            // G: an offer code; refunded during retry; another app of the same database.
            try export.line(
                "G", "DID_FAIL_TO_RENEW", at: 10, product: y, expires: 10, offerType: 3,
                offerDiscountType: "PAY_UP_FRONT", bundleId: QueryFixture.otherApp
            ),
            try export.line("G", "REFUND", at: 12, product: y, bundleId: QueryFixture.otherApp),
            // Z: an ordinary renewal, the latest notification.
            try export.line("Z", "DID_RENEW", at: 70, product: m),
            // S: Sandbox only.
            try export.line("S", "DID_FAIL_TO_RENEW", at: 30, product: m, expires: 30, environment: "Sandbox"),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("export.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: path)
        let options = LoadOptions(
            policy: AcceptancePolicy(verifier: JWSVerifier(trustRoots: [export.root.root])), workers: 2, command: "test"
        )
        let summary = try await Loader(connection: writer, options: options, logger: .test).load([path.path])
        guard summary.rejected == 0 else { throw FixtureError(message: "\(summary.rejected) notification(s) rejected") }
        let analyzer = EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
        try analyzer.analyze(environment: "Production")
        try analyzer.analyze(environment: "Sandbox")
        let store = StoredDataset(connection: writer)
        let asOf = try store.latestSignedDate() ?? 0
        return QueryFixture(
            schema: schema,
            asOf: asOf,
            stored: try store.stored(environment: "Production", asOf: asOf),
            notificationCount: try count("notifications", writer)
        )
    }

    /// Rows in one of the fixture's tables.
    package static func count(_ table: String, _ connection: PGConnection) throws -> Int {
        try connection.execute("SELECT count(*) FROM \(try connection.quoteIdentifier(table))").scalar
            .flatMap { Int($0) } ?? -1
    }
}

/// Why the fixture could not be loaded.
package struct FixtureError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }

    package init(message: String) {
        self.message = message
    }
}
