/// The outcome of a request to extend subscription renewal dates for all eligible subscribers.
///
/// [summary](https://developer.apple.com/documentation/appstoreservernotifications/summary)
package struct Summary: Codable, ScannedDecodable, Hashable, Sendable {
    /// The environment of the extension request.
    package var environment: OpenEnum<Environment>?
    /// The app's App Store identifier.
    package var appAppleId: Int64?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The product whose subscriptions were extended.
    package var productId: String?
    /// The identifier the app gave the mass extension request.
    package var requestIdentifier: String?
    /// The storefronts (ISO 3166-1 alpha-3) the extension applied to.
    package var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    package var succeededCount: Int64?
    /// How many subscriptions could not be extended.
    package var failedCount: Int64?

    /// An empty summary; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case environment, appAppleId, bundleId, productId, requestIdentifier, storefrontCountryCodes, succeededCount
        case failedCount
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        environment = try container.field(.environment)
        appAppleId = try container.field(.appAppleId)
        bundleId = try container.field(.bundleId)
        productId = try container.field(.productId)
        requestIdentifier = try container.field(.requestIdentifier)
        storefrontCountryCodes = try container.field(.storefrontCountryCodes)
        succeededCount = try container.field(.succeededCount)
        failedCount = try container.field(.failedCount)
    }
}
