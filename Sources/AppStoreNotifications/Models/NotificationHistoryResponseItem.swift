/// One notification in a notification history page, with the App Store's delivery attempts.
///
/// [notificationHistoryResponseItem](https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponseitem)
package struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    /// The notification as a JWS, exactly as it was sent to the app's server.
    package var signedPayload: String?
    /// The App Store's delivery attempts, oldest first; at most six (the first try and five retries).
    package var sendAttempts: [SendAttemptItem]?
    /// The result of the first delivery attempt, from an older revision of the API.
    package var firstSendAttemptResult: OpenEnum<SendAttemptResult>?

    /// An empty item; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedPayload = try container.field(.signedPayload)
        sendAttempts = try container.decoded(.sendAttempts)
        firstSendAttemptResult = try container.field(.firstSendAttemptResult)
    }
}
