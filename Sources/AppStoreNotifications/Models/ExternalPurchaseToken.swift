/// An External Purchase API token.
///
/// There is no environment field: an `externalPurchaseId` that starts with `SANDBOX` is a sandbox token.
///
/// [externalPurchaseToken](https://developer.apple.com/documentation/appstoreservernotifications/externalpurchasetoken)
package struct ExternalPurchaseToken: Codable, ScannedDecodable, Hashable, Sendable {
    /// The token's unique identifier; starts with `SANDBOX` in sandbox.
    package var externalPurchaseId: String?
    /// When the system created the token, in Unix milliseconds.
    package var tokenCreationDate: Int64?
    /// The app's App Store identifier.
    package var appAppleId: Int64?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The custom link token type.
    package var tokenType: OpenEnum<TokenType>?
    /// When the token expires, in Unix milliseconds.
    package var tokenExpirationDate: Int64?

    /// An empty token; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case externalPurchaseId, tokenCreationDate, appAppleId, bundleId, tokenType, tokenExpirationDate
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        externalPurchaseId = try container.field(.externalPurchaseId)
        tokenCreationDate = try container.unixMilliseconds(.tokenCreationDate)
        appAppleId = try container.field(.appAppleId)
        bundleId = try container.field(.bundleId)
        tokenType = try container.field(.tokenType)
        tokenExpirationDate = try container.unixMilliseconds(.tokenExpirationDate)
    }
}
