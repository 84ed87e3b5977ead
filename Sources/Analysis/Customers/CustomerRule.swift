/// Who a customer is and when they came back (METRICS.md v2.1, "Customers who come back"), stated over the
/// subscriptions' ``CustomerFacts``: the rule the store's set-based SQL (`CustomerLinks`, `CustomerReturns`) carries
/// out over millions of keys, and which a test holds that SQL to on the same data.
package enum CustomerRule {
    /// The customers of the subscriptions in `facts` as of `asOf`: each subscription that shares a key with another
    /// (an `appTransactionId`, a non-empty `appAccountToken`, or the `subscription:<id>` key of a migration) mapped to
    /// its customer's id, the smallest original transaction id of the subscriptions linked to it, transitively, in
    /// UTF-8 byte order. A subscription sharing no key is a customer of its own and is left out.
    ///
    /// A key counts from the time it was first signed. The `subscription:<id>` key is held by the subscription that
    /// continues `id` after a migration and, once it has a notification that counts, by `id` itself.
    /// - Parameters:
    ///   - facts: each subscription's facts, by original transaction id.
    ///   - asOf: the time (Unix ms) the keys must be signed by; nil for every key.
    package static func customers(_ facts: [String: CustomerFacts], asOf: Int64? = nil) -> [String: String] {
        func known(_ signed: Int64) -> Bool { asOf.map { signed <= $0 } ?? true }
        var holders: [String: Set<String>] = [:]
        for (subscription, subscriptionFacts) in facts {
            for entry in subscriptionFacts.links where known(entry.firstSigned) {
                holders[entry.link.key, default: []].insert(subscription)
                if entry.link.kind == .subscription, let first = facts[entry.link.value]?.firstSigned, known(first) {
                    holders[entry.link.key, default: []].insert(entry.link.value)
                }
            }
        }
        var parent: [String: String] = [:]
        func root(_ subscription: String) -> String {
            var current = subscription
            while let next = parent[current], next != current { current = next }
            return current
        }
        for members in holders.values where members.count > 1 {
            let roots = members.map(root)
            let smallest = roots.min { $0.utf8.lexicographicallyPrecedes($1.utf8) } ?? roots[0]
            for member in members { parent[member] = parent[member] ?? member }
            for other in roots { parent[other] = smallest }
        }
        var customers: [String: String] = [:]
        for subscription in parent.keys { customers[subscription] = root(subscription) }
        return customers
    }

    /// The return of an expired episode: the earliest `purchaseDate` after its end `end` of a `SUBSCRIBED` or
    /// `OFFER_REDEEMED` of the same customer (any of its subscriptions, or the episode's own when it shares no key),
    /// of the episode's app, signed by `asOf`; nil when none.
    /// - Parameters:
    ///   - members: each customer's subscriptions, by customer id (``customers(_:asOf:)`` turned around).
    package static func returnedAt(
        subscription: String, end: Int64, bundleId: String?, asOf: Int64, facts: [String: CustomerFacts],
        customers: [String: String], members: [String: [String]]
    ) -> Int64? {
        let subscriptions = customers[subscription].flatMap { members[$0] } ?? [subscription]
        return subscriptions.flatMap { facts[$0]?.purchases ?? [] }
            .filter { $0.purchaseDate > end && $0.signedDate <= asOf && $0.bundleId == bundleId }
            .map(\.purchaseDate).min()
    }
}
