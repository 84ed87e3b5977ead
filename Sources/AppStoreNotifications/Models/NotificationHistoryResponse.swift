/// One page of the Get Notification History response.
///
/// [NotificationHistoryResponse](https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponse)
package struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    /// The token that requests the next page; present while `hasMore` is true.
    package var paginationToken: String?
    /// Whether more pages follow.
    package var hasMore: Bool?
    /// The notifications of this page, at most 20.
    package var notificationHistory: [NotificationHistoryResponseItem]?

    /// An empty page; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        paginationToken = try container.field(.paginationToken)
        hasMore = try container.field(.hasMore)
        notificationHistory = try container.decoded(.notificationHistory)
    }
}
