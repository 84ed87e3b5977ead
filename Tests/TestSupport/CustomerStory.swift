import Foundation

/// A story of customers and their returns, worked out by hand (METRICS.md v2.1, "Customers who come back").
package enum CustomerStory {
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
    /// - H's episode is ended on day 5 by a partial refund (`REFUND`, `REFUND_PRORATED`, 50 %): outcome `other`.
    /// - I's episode recovers on day 3 by the charge `I-recovery`, refunded in full on day 8.
    /// Signed by day 200, as of day 200 (190 days after e).
    package static func lines(_ stories: inout SignedStories) throws -> [String] {
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
        lines.append(try stories.line("H", "SUBSCRIBED", "INITIAL_BUY", at: -30, expires: 0))
        lines.append(try stories.line("H", "DID_FAIL_TO_RENEW", at: 0, expires: 0))
        lines.append(
            try stories.line(
                "H", "REFUND", at: 5, expires: 0,
                transactionFields: ["revocationType": "REFUND_PRORATED", "revocationPercentage": 50_000]))
        lines.append(try stories.line("I", "SUBSCRIBED", "INITIAL_BUY", at: -30, expires: 0))
        lines.append(try stories.line("I", "DID_FAIL_TO_RENEW", at: 0, expires: 0))
        lines.append(
            try stories.line(
                "I", "DID_RENEW", "BILLING_RECOVERY", at: 3, expires: 33,
                transactionFields: ["transactionId": "I-recovery"]))
        lines.append(
            try stories.line(
                "I", "REFUND", at: 8, expires: 33,
                transactionFields: ["transactionId": "I-recovery", "revocationType": "REFUND_FULL"]))
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
}
