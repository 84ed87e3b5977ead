/// The shape of an export file's lines.
package enum ExportFormat: String, Hashable, Sendable, CaseIterable {
    /// One `{"signedPayload":"<JWS>"}` per line: the body the App Store POSTs to the app's server.
    case jsonLines = "jsonl"
    /// Get Notification History response pages, one per line:
    /// `{"hasMore":…,"notificationHistory":[{"sendAttempts":[…],"signedPayload":"<JWS>"}, …],"paginationToken":…}`
    /// with at most 20 notifications per page.
    case history

    /// Notifications per history page, as the App Store Server API returns them.
    package static let pageSize = 20
}
