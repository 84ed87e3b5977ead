/// The body of a Get Notification History request: a time range and optional filters.
///
/// [NotificationHistoryRequest](https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest)
package struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    /// The start of the range, Unix milliseconds, inclusive. Required; Apple keeps 180 days (Sandbox: 30).
    package var startDate: Int64?
    /// The end of the range, Unix milliseconds, exclusive. Required; a future end is taken as now.
    package var endDate: Int64?
    /// Only notifications of this type (`DID_FAIL_TO_RENEW`, …).
    package var notificationType: String?
    /// Only notifications of this subtype; requires ``notificationType``.
    package var notificationSubtype: String?
    /// Only the notifications of the customer who made this transaction; not together with ``notificationType``.
    package var transactionId: String?
    /// Only the notifications that never reached the app's server (delivery failed, or is still being retried).
    package var onlyFailures: Bool?

    package init(startDate: Int64, endDate: Int64) {
        self.startDate = startDate
        self.endDate = endDate
    }
}
