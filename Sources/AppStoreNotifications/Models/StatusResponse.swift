/// The Get All Subscription Statuses response: the latest transaction of each subscription, by group.
///
/// [StatusResponse](https://developer.apple.com/documentation/appstoreserverapi/statusresponse)
package struct StatusResponse: Codable, Hashable, Sendable {
    /// The environment of the response.
    package var environment: OpenEnum<Environment>?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The app's App Store identifier.
    package var appAppleId: Int64?
    /// The subscription groups with their latest transactions.
    package var data: [SubscriptionGroupIdentifierItem]?

    /// An empty response; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        environment = try container.field(.environment)
        bundleId = try container.field(.bundleId)
        appAppleId = try container.field(.appAppleId)
        data = try container.decoded(.data)
    }
}
