import AppStoreNotifications

/// One page of Get Notification History as it came, and what it says.
package struct NotificationHistoryPage: Sendable {
    /// The response body exactly as received: the evidence a history file keeps.
    package var body: [UInt8]
    /// The decoded page; its ``NotificationHistoryResponse/notificationHistory`` is present, and its
    /// ``NotificationHistoryResponse/paginationToken`` too while ``NotificationHistoryResponse/hasMore`` is true.
    package var response: NotificationHistoryResponse
    /// The pagination token this page was requested with; nil for the first page of a range.
    package var requestedToken: String?
    /// Tries it took (1 when the first answer was good).
    package var attempts: Int

    package init(body: [UInt8], response: NotificationHistoryResponse, requestedToken: String?, attempts: Int) {
        self.body = body
        self.response = response
        self.requestedToken = requestedToken
        self.attempts = attempts
    }

    /// Whether another page follows.
    package var hasMore: Bool { response.hasMore == true }

    /// The token of the next page; nil on the last one.
    package var nextToken: String? { hasMore ? response.paginationToken : nil }

    /// The notifications on this page.
    package var count: Int { response.notificationHistory?.count ?? 0 }
}
