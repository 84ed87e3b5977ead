/// The customer's purchase of the app itself, decoded from `signedAppTransactionInfo`.
///
/// [AppTransaction](https://developer.apple.com/documentation/storekit/apptransaction)
package struct AppTransaction: Codable, ScannedDecodable, Hashable, Sendable {
    /// The environment that signed the app transaction.
    package var receiptType: OpenEnum<Environment>?
    /// The app's App Store identifier.
    package var appAppleId: Int64?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The app version the app transaction applies to.
    package var applicationVersion: String?
    /// The App Store's identifier of the app version.
    package var versionExternalIdentifier: Int64?
    /// When the App Store signed the app transaction, in Unix milliseconds.
    package var receiptCreationDate: Int64?
    /// When the customer first bought the app, in Unix milliseconds (may lie before 1970).
    package var originalPurchaseDate: Int64?
    /// The app version the customer first bought.
    package var originalApplicationVersion: String?
    /// The base64 value that ties the app transaction to a device.
    package var deviceVerification: String?
    /// The UUID used to compute `deviceVerification` (kept as text).
    package var deviceVerificationNonce: String?
    /// When the customer pre-ordered the app, in Unix milliseconds.
    package var preorderDate: Int64?
    /// The identifier of this app transaction.
    package var appTransactionId: String?
    /// The platform on which the customer first bought the app.
    package var originalPlatform: OpenEnum<PurchasePlatform>?

    /// An empty app transaction; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate
        case originalPurchaseDate, originalApplicationVersion, deviceVerification, deviceVerificationNonce
        case preorderDate, appTransactionId, originalPlatform
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        receiptType = try container.field(.receiptType)
        appAppleId = try container.field(.appAppleId)
        bundleId = try container.field(.bundleId)
        applicationVersion = try container.field(.applicationVersion)
        versionExternalIdentifier = try container.field(.versionExternalIdentifier)
        receiptCreationDate = try container.unixMilliseconds(.receiptCreationDate)
        originalPurchaseDate = try container.unixMilliseconds(.originalPurchaseDate)
        originalApplicationVersion = try container.field(.originalApplicationVersion)
        deviceVerification = try container.field(.deviceVerification)
        deviceVerificationNonce = try container.field(.deviceVerificationNonce)
        preorderDate = try container.unixMilliseconds(.preorderDate)
        appTransactionId = try container.field(.appTransactionId)
        originalPlatform = try container.field(.originalPlatform)
    }
}
