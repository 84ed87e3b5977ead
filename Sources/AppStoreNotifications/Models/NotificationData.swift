/// App metadata and the signed transaction and renewal information of a notification (Apple's `data` object).
///
/// [data](https://developer.apple.com/documentation/appstoreservernotifications/data)
package struct NotificationData: Codable, ScannedDecodable, Hashable, Sendable {
    /// The app's App Store identifier; optional in sandbox.
    package var appAppleId: Int64?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The app's build number (`CFBundleVersion`).
    package var bundleVersion: String?
    /// The environment the notification applies to.
    package var environment: OpenEnum<Environment>?
    /// The transaction as a JWS (decode it with `NotificationDecoder`).
    package var signedTransactionInfo: String?
    /// The subscription renewal info as a JWS; subscriptions only.
    package var signedRenewalInfo: String?
    /// The subscription's status as of the notification's `signedDate`.
    package var status: OpenEnum<Status>?
    /// Why the customer asked for a refund (`CONSUMPTION_REQUEST` only).
    package var consumptionRequestReason: OpenEnum<ConsumptionRequestReason>?

    /// Empty data; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case appAppleId, bundleId, bundleVersion, environment, signedTransactionInfo, signedRenewalInfo, status
        case consumptionRequestReason
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        appAppleId = try container.field(.appAppleId)
        bundleId = try container.field(.bundleId)
        bundleVersion = try container.field(.bundleVersion)
        environment = try container.field(.environment)
        signedTransactionInfo = try container.field(.signedTransactionInfo)
        signedRenewalInfo = try container.field(.signedRenewalInfo)
        status = try container.field(.status)
        consumptionRequestReason = try container.field(.consumptionRequestReason)
    }
}
