import Foundation
import TestSupport
import Testing

/// `churn query returns` and `churn query customer`, as a user runs them on the worked-out ``CustomerStory``.
@Suite struct CustomerQueryTests {
    @Test func returnsAndOneCustomerFromTheShell() throws {
        var stories = try SignedStories(name: "CustomerQuery")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("customers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("customers.jsonl")
        try Data((try CustomerStory.lines(&stories).joined(separator: "\n") + "\n").utf8).write(to: export)
        let schema = try TestDatabase.makeSchema("customerquery")
        let database = ["--database-url", schema.url]
        let load = try ChurnCommand.run(["load", "--no-verify"] + database + [export.path])
        #expect(load.status == 0, "\(load.stderr)")

        // Seven expiries (A to G), four returns: A after 15 days, D after 30, B after 40, C after 100; as of day 200.
        let returns = try ChurnCommand.run(["query", "returns", "--format", "csv"] + database)
        #expect(returns.status == 0, "\(returns.stderr)")
        let lines = returns.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "month,expired,returned,returned_30d,returned_90d,returned_180d")
        // 1 − S: at 30 days A and D are back (2 of 7), at 90 B too (3 of 7), at 180 C too (4 of 7).
        #expect(lines.last == "(all),7,4,0.285714,0.428571,0.571429")
        let byProduct = try ChurnCommand.run(["query", "returns", "--group-by", "product"] + database)
        #expect(byProduct.status == 0 && byProduct.stdout.contains("com.example.monthly"), "\(byProduct.stdout)")
        let wrong = try ChurnCommand.run(["query", "returns", "--group-by", "cohort"] + database)
        #expect(wrong.status == 64, "\(wrong.stderr)")

        // B, by its appTransactionId: B and B2, B's expiry and its return 40 days later.
        let b = try ChurnCommand.run(["query", "customer", "700B", "--format", "json"] + database)
        #expect(b.status == 0, "\(b.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(b.stdout.utf8)) as? [String: Any], "\(b.stdout)")
        #expect(object["customer_id"] as? String == "B")
        let subscriptions = try #require(object["subscriptions"] as? [[String: Any]])
        #expect(subscriptions.compactMap { $0["original_transaction_id"] as? String } == ["B", "B2"])
        let episodes = try #require(object["episodes"] as? [[String: Any]])
        #expect(episodes.count == 1)
        #expect(episodes.first?["outcome"] as? String == "expired")
        #expect((episodes.first?["days_to_return"] as? NSNumber)?.doubleValue == 40)

        // D, by the id of the subscription that continued it, through the migration and D3's appTransactionId.
        let d = try ChurnCommand.run(["query", "customer", "D3"] + database)
        #expect(d.status == 0, "\(d.stderr)")
        #expect(d.stdout.hasPrefix("Customer D (Production)"), "\(d.stdout)")
        #expect(d.stdout.contains("MIGRATE"))
        // C by its app account token; H's partial refund shown on the episode it ended.
        let c = try ChurnCommand.run(["query", "customer", "c-token", "--format", "csv"] + database)
        #expect(c.status == 0 && c.stdout.hasPrefix("# subscriptions\n"), "\(c.stdout)")
        #expect(c.stdout.contains("OFFER_REDEEMED"))
        // A token is a UUID, the same in any case: as Swift's uuidString writes it (upper case), it finds C too.
        let shouted = try ChurnCommand.run(["query", "customer", "C-TOKEN", "--format", "csv"] + database)
        #expect(shouted.status == 0 && shouted.stdout == c.stdout, "\(shouted.stdout)\(shouted.stderr)")
        let h = try ChurnCommand.run(["query", "customer", "H", "--format", "csv"] + database)
        let episodeRow = try #require(h.stdout.split(separator: "\n").first { $0.hasPrefix("H,1,") })
        #expect(episodeRow.contains(",other,") && episodeRow.contains(",REFUND_PRORATED,50.000,"), "\(episodeRow)")
        // I's recovering charge refunded later: shown on the recovered episode, here and in `churn query episodes`.
        let i = try ChurnCommand.run(["query", "customer", "I", "--format", "csv"] + database)
        let recovered = try #require(i.stdout.split(separator: "\n").first { $0.hasPrefix("I,1,") })
        #expect(recovered.contains(",recovered,") && recovered.contains(",REFUND_FULL,"), "\(recovered)")
        let listed = try ChurnCommand.run(["query", "episodes", "--format", "csv"] + database)
        #expect(
            listed.stdout.split(separator: "\n").first?.hasSuffix(
                ",revocation_type,revocation_percentage,billing_plan,installments_at_risk") == true)
        #expect(listed.stdout.contains(",REFUND_PRORATED,50.000,standard,1\n"), "\(listed.stdout)")

        // An id no subscription has: refused with what was looked for.
        let unknown = try ChurnCommand.run(["query", "customer", "nobody"] + database)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no subscription of Production has 'nobody'"), "\(unknown.stderr)")
    }
}
