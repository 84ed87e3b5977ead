/// One subscription group in a status response, with the latest transaction of each subscription in it.
///
/// [SubscriptionGroupIdentifierItem](https://developer.apple.com/documentation/appstoreserverapi/subscriptiongroupidentifieritem)
package struct SubscriptionGroupIdentifierItem: Codable, Hashable, Sendable {
    /// The subscription group identifier.
    package var subscriptionGroupIdentifier: String?
    /// The latest transaction of each subscription in the group.
    package var lastTransactions: [LastTransactionsItem]?

    /// An empty item; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subscriptionGroupIdentifier = try container.field(.subscriptionGroupIdentifier)
        lastTransactions = try container.decoded(.lastTransactions)
    }
}
