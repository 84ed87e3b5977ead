/// One attempt by the App Store to deliver a notification to the app's server.
///
/// [sendAttemptItem](https://developer.apple.com/documentation/appstoreserverapi/sendattemptitem)
package struct SendAttemptItem: Codable, Hashable, Sendable {
    /// When the App Store tried to deliver the notification, in Unix milliseconds.
    package var attemptDate: Int64?
    /// The outcome of the attempt.
    package var sendAttemptResult: OpenEnum<SendAttemptResult>?

    /// An empty attempt; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attemptDate = try container.unixMilliseconds(.attemptDate)
        sendAttemptResult = try container.field(.sendAttemptResult)
    }
}
