import Analysis
import AnalysisStore
import Foundation
import PGClient
import Store
import TestSupport
import Testing

/// Customers and their returns (METRICS.md v2.1, "Customers who come back"), from signed notifications through the
/// loader, the analysis and the returns' join, against the answers worked out in ``CustomerStory``.
@Suite struct CustomerReturnsTests {
    @Test func linksThroughEachKeyAndFindsEachReturn() async throws {
        let schema = try TestDatabase.makeSchema("customers")
        let writer = try schema.connect()
        try Migrator(logger: .test).migrate(writer)
        let reader = try schema.connect()
        var stories = try SignedStories(name: "Customers")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("customers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await stories.load(try CustomerStory.lines(&stories), as: "customers.jsonl", in: directory, into: writer)
        let analysis = try EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
            .analyze(environment: "Production")
        #expect(analysis.linkedSubscriptions == 9, "B, B2, C, C2, D, D2, D3, E, E2")

        let customers = try writer.execute(
            "SELECT original_transaction_id || '→' || customer_id FROM subscription_customers ORDER BY 1"
        ).rows.compactMap { $0[0] }
        #expect(customers == ["B2→B", "B→B", "C2→C", "C→C", "D2→D", "D3→D", "D→D", "E2→E", "E→E"])

        let asOf = SignedStories.day(200)
        let followUps = try Self.followUps(writer: writer, asOf: asOf, latest: true)
        let day: Int64 = 86_400_000
        #expect(
            followUps == [
                "A": 15 * day, "B": 40 * day, "C": 100 * day, "D": 30 * day, "E": nil, "F": nil, "G": nil,
            ])
        // The same customers linked afresh by the keys known as of day 200 give the same answer.
        #expect(try Self.followUps(writer: writer, asOf: asOf, latest: false) == followUps)
        // As of day 45, D3 (day 40) links D's customer, C2's offer (day 110) is not yet signed.
        let early = try Self.followUps(writer: writer, asOf: SignedStories.day(45), latest: false)
        #expect(early["D"] == 30 * day)
        #expect(early["C"] == .some(nil))
        #expect(early["B"] == .some(nil), "B2 subscribes on day 50")
    }

    /// A later notification can join two customers: the nightly's incremental rebuild of one subscription relinks
    /// the environment, and G's return appears, as a full rebuild has it.
    @Test func aLaterNotificationJoinsTwoCustomers() async throws {
        let schema = try TestDatabase.makeSchema("customerjoin")
        let writer = try schema.connect()
        try Migrator(logger: .test).migrate(writer)
        let reader = try schema.connect()
        var stories = try SignedStories(name: "CustomerJoin")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("join-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // G2 subscribes on day 30 with an app account token G's notifications do not carry yet.
        var first = try CustomerStory.lines(&stories)
        first.append(
            try stories.line(
                "G2", "SUBSCRIBED", "INITIAL_BUY", at: 30, expires: 60, transactionFields: ["appAccountToken": "g"]))
        try await stories.load(first, as: "first.jsonl", in: directory, into: writer)
        let analyzer = EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
        try analyzer.analyze(environment: "Production")
        let asOf = SignedStories.day(200)
        #expect(try Self.followUps(writer: writer, asOf: asOf, latest: true)["G"] == .some(nil))

        // G's renewal info names the same token on day 150 (the app set it late): G and G2 are one customer.
        let bridge = try stories.line(
            "G", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: 150, expires: 0,
            renewalFields: ["appAccountToken": "g"])
        try await stories.load([bridge], as: "second.jsonl", in: directory, into: writer)
        let incremental = try analyzer.analyze(environment: "Production")
        #expect(incremental.subscriptionsRebuilt == 1)
        let joined = try Self.followUps(writer: writer, asOf: asOf, latest: true)
        #expect(joined["G"] == .some(20 * 86_400_000))
        let customers = "SELECT original_transaction_id || '→' || customer_id FROM subscription_customers ORDER BY 1"
        let afterIncremental = try writer.execute(customers).rows
        try analyzer.analyze(environment: "Production", full: true)
        #expect(try writer.execute(customers).rows == afterIncremental)
        #expect(try Self.followUps(writer: writer, asOf: asOf, latest: true) == joined)
        // As of day 100 the token was not on G yet: no link, no return.
        #expect(try Self.followUps(writer: writer, asOf: SignedStories.day(100), latest: false)["G"] == .some(nil))
    }

    /// The nightly relinks only the customers a touched subscription can change, and those include every subscription
    /// of a customer it joins: here M3 shares a key with M1 and M2 only, and M0 is linked to them through M2's other
    /// key, so a relink of M1, M2 and M3 alone would name M1 as their customer instead of M0.
    @Test func anIncrementalRelinkFollowsEveryKeyOfTheCustomersItJoins() async throws {
        let schema = try TestDatabase.makeSchema("customerchain")
        let writer = try schema.connect()
        try Migrator(logger: .test).migrate(writer)
        let reader = try schema.connect()
        var stories = try SignedStories(name: "CustomerChain")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func subscribed(_ name: String, at day: Int64, _ fields: [String: String]) throws -> String {
            try stories.line(name, "SUBSCRIBED", "INITIAL_BUY", at: day, expires: day + 30, transactionFields: fields)
        }
        try await stories.load(
            [
                try subscribed("M0", at: 10, ["appAccountToken": "t"]),
                try subscribed("M1", at: 20, ["appTransactionId": "a"]),
                try subscribed("M2", at: 30, ["appTransactionId": "a", "appAccountToken": "t"]),
                try subscribed("N1", at: 30, ["appAccountToken": "u"]),
                try subscribed("N2", at: 35, ["appAccountToken": "u"]),
            ], as: "first.jsonl", in: directory, into: writer)
        let analyzer = EpisodeAnalyzer(writer: writer, reader: reader, logger: .test)
        try analyzer.analyze(environment: "Production")
        let customers = "SELECT original_transaction_id || '→' || customer_id FROM subscription_customers ORDER BY 1"
        #expect(
            try writer.execute(customers).rows.compactMap { $0[0] } == ["M0→M0", "M1→M0", "M2→M0", "N1→N1", "N2→N1"])

        // M3 shares M1's key; P2 continues N2 after a migration (N2's `subscription:` key, looked up by value).
        try await stories.load(
            [
                try subscribed("M3", at: 40, ["appTransactionId": "a"]),
                try subscribed("P2", at: 45, ["previousOriginalTransactionId": "N2"]),
            ], as: "second.jsonl", in: directory, into: writer)
        let incremental = try analyzer.analyze(environment: "Production")
        #expect(incremental.subscriptionsRebuilt == 2)
        #expect(incremental.linkedSubscriptions == 7)
        let afterIncremental = try writer.execute(customers).rows.compactMap { $0[0] }
        #expect(afterIncremental == ["M0→M0", "M1→M0", "M2→M0", "M3→M0", "N1→N1", "N2→N1", "P2→N1"])
        try analyzer.analyze(environment: "Production", full: true)
        #expect(try writer.execute(customers).rows.compactMap { $0[0] } == afterIncremental)
    }

    /// Each expired episode's time to return, by subscription (nil: none by `asOf`).
    static func followUps(writer: PGConnection, asOf: Int64, latest: Bool) throws -> [String: Int64?] {
        var returns = CustomerReturns()
        let store = StoredDataset(connection: writer)
        _ = try store.streamStored(environment: "Production", asOf: asOf) { try returns.add($0) }
        var answers: [String: Int64?] = [:]
        try returns.followUps(environment: "Production", asOf: asOf, customersAsOfLatest: latest, store: store) {
            answers.updateValue($0.returnedAt.map { [end = $0.end] in $0 - end }, forKey: $0.subscription)
        }
        return answers
    }
}
