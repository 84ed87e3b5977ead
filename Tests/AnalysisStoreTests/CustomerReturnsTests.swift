import Analysis
import AnalysisStore
import Foundation
import PGClient
import Store
import TestSupport
import Testing

/// Customers and their returns (METRICS.md v2.1, "Customers who come back"), from signed notifications through the
/// loader, the analysis and the returns' join, against worked-out answers.
@Suite struct CustomerReturnsTests {
    /// One expired episode per subscription A, B, C, D, E, F, G (each fails on day 0 and expires on day 10 by
    /// `EXPIRED`/`BILLING_RETRY`), and what follows:
    /// - A comes back on the same subscription (`RESUBSCRIBE`) on day 25: a return after 15 days.
    /// - B shares its `appTransactionId` with B2, which subscribes (`INITIAL_BUY`) on day 50: a return after 40 days.
    /// - C shares an `appAccountToken` with C2, whose `OFFER_REDEEMED` on day 110 is a return after 100 days.
    /// - D is continued by D2 after a migration (`previousOriginalTransactionId`); D2's `MIGRATE` on day 20 is no
    ///   return, and D2 shares an `appTransactionId` with D3, which subscribes on day 40: D returns after 30 days,
    ///   through two links.
    /// - E's customer bought before the expiry only (E2 on day 5, linked by `appTransactionId`): no return.
    /// - F's `appAccountToken` is empty, as is F2's: not linked, so F2's purchase on day 20 is no return of F's.
    /// - G has no link at all.
    /// Signed by day 200, as of day 200 (190 days after e).
    static func lines(_ stories: inout SignedStories) throws -> [String] {
        var lines: [String] = []
        func account(_ id: String) -> [String: Any] { ["appTransactionId": id] }
        func token(_ value: String) -> [String: Any] { ["appAccountToken": value] }
        let fails: [(String, [String: Any])] = [
            ("A", account("700A")), ("B", account("700B")), ("C", token("c-token")), ("D", account("700D")),
            ("E", account("700E")), ("F", token("")), ("G", [:]),
        ]
        for (subscription, fields) in fails {
            lines.append(
                try stories.line(
                    subscription, "SUBSCRIBED", "INITIAL_BUY", at: -30, expires: 0, transactionFields: fields))
            lines.append(
                try stories.line(subscription, "DID_FAIL_TO_RENEW", at: 0, expires: 0, transactionFields: fields))
            lines.append(
                try stories.line(
                    subscription, "EXPIRED", "BILLING_RETRY", at: 10, expires: 0, transactionFields: fields))
        }
        lines.append(try stories.line("A", "SUBSCRIBED", "RESUBSCRIBE", at: 25, expires: 55))
        lines.append(
            try stories.line("B2", "SUBSCRIBED", "INITIAL_BUY", at: 50, expires: 80, transactionFields: account("700B"))
        )
        lines.append(
            try stories.line(
                "C2", "DID_RENEW", at: 60, expires: 90, transactionFields: token("c-token")))
        lines.append(
            try stories.line("C2", "OFFER_REDEEMED", at: 110, expires: 140, transactionFields: token("c-token")))
        lines.append(
            try stories.line(
                "D2", "MIGRATE", at: 20, expires: 50,
                transactionFields: ["previousOriginalTransactionId": "D", "appTransactionId": "700D2"]))
        lines.append(
            try stories.line(
                "D3", "SUBSCRIBED", "INITIAL_BUY", at: 40, expires: 70, transactionFields: account("700D2")))
        lines.append(
            try stories.line("E2", "SUBSCRIBED", "INITIAL_BUY", at: 5, expires: 35, transactionFields: account("700E")))
        lines.append(
            try stories.line("F2", "SUBSCRIBED", "INITIAL_BUY", at: 20, expires: 50, transactionFields: token("")))
        lines.append(try stories.testNotification(at: 200))
        return lines
    }

    @Test func linksThroughEachKeyAndFindsEachReturn() async throws {
        let schema = try TestDatabase.makeSchema("customers")
        let writer = try schema.connect()
        try Migrator(logger: .test).migrate(writer)
        let reader = try schema.connect()
        var stories = try SignedStories(name: "Customers")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("customers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await stories.load(try Self.lines(&stories), as: "customers.jsonl", in: directory, into: writer)
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
