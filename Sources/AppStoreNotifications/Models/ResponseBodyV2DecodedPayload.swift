import NotificationTypes

/// The decoded payload of a version 2 notification (the payload of `signedPayload`).
///
/// `data`, `summary`, `externalPurchaseToken` and `appData` are mutually exclusive.
///
/// [responseBodyV2DecodedPayload](https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload)
package struct ResponseBodyV2DecodedPayload: Codable, ScannedDecodable, Hashable, Sendable {
    /// The event this notification reports; always present in a valid notification.
    package var notificationType: OpenEnum<NotificationTypeV2>?
    /// Details the event for some notification types; absent (not empty) otherwise.
    package var subtype: OpenEnum<Subtype>?
    /// Unique per notification and reused by retries of the same notification: the idempotency key.
    package var notificationUUID: String?
    /// App metadata with the signed transaction and renewal info; present for in-app purchase events.
    package var data: NotificationData?
    /// The result of a mass renewal-date extension (`RENEWAL_EXTENSION` / `SUMMARY` only).
    package var summary: Summary?
    /// The external purchase token (`EXTERNAL_PURCHASE_TOKEN` only).
    package var externalPurchaseToken: ExternalPurchaseToken?
    /// App metadata with the signed app transaction (`RESCIND_CONSENT` only).
    package var appData: AppData?
    /// The App Store Server Notifications version, `"2.0"`.
    package var version: String?
    /// When the App Store signed the notification, in Unix milliseconds; use it to order events.
    package var signedDate: Int64?

    /// An empty payload; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case notificationType, subtype, notificationUUID, data, summary, externalPurchaseToken, appData, version
        case signedDate
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        notificationType = try container.field(.notificationType)
        subtype = try container.field(.subtype)
        notificationUUID = try container.field(.notificationUUID)
        data = try container.field(.data)
        summary = try container.field(.summary)
        externalPurchaseToken = try container.field(.externalPurchaseToken)
        appData = try container.field(.appData)
        version = try container.field(.version)
        signedDate = try container.unixMilliseconds(.signedDate)
    }
}
