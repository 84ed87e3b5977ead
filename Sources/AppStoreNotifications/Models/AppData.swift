/// App metadata and the signed app transaction of a `RESCIND_CONSENT` notification.
///
/// [appData](https://developer.apple.com/documentation/appstoreservernotifications/appdata)
package struct AppData: Codable, ScannedDecodable, Hashable, Sendable {
    /// The app's App Store identifier.
    package var appAppleId: Int64?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The environment the notification applies to.
    package var environment: OpenEnum<Environment>?
    /// The app transaction as a JWS (decode it with `NotificationDecoder`).
    package var signedAppTransactionInfo: String?

    /// Empty app data; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case appAppleId, bundleId, environment, signedAppTransactionInfo
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        appAppleId = try container.field(.appAppleId)
        bundleId = try container.field(.bundleId)
        environment = try container.field(.environment)
        signedAppTransactionInfo = try container.field(.signedAppTransactionInfo)
    }
}
