/// Walks the pages of one Get Notification History range, following `paginationToken` until `hasMore` is false.
///
/// It can start at any page: a fetch that stopped resumes with the token of the first page it did not keep.
package struct NotificationHistoryPager {
    private let client: AppStoreServerAPIClient
    /// The range and filters, the same for every page.
    package let request: NotificationHistoryRequest
    /// The token the next page is asked with; nil for the first page of the range.
    package private(set) var nextToken: String?
    /// Whether the last page was received.
    package private(set) var isFinished = false

    /// - Parameter token: where to start: nil for the range's first page, else a token a page of this range gave.
    package init(client: AppStoreServerAPIClient, request: NotificationHistoryRequest, startingAt token: String? = nil)
    {
        self.client = client
        self.request = request
        self.nextToken = token
    }

    /// The next page, or nil after the last one.
    /// - Parameter onMalformed: gets each malformed answer before the page is requested again.
    /// - Throws: ``AppStoreServerAPIError``, or what `onMalformed` throws.
    package mutating func next(onMalformed: (MalformedPage) throws -> Void = { _ in }) async throws
        -> NotificationHistoryPage?
    {
        guard !isFinished else { return nil }
        let page = try await client.notificationHistoryPage(
            request, paginationToken: nextToken, onMalformed: onMalformed)
        nextToken = page.nextToken
        isFinished = !page.hasMore
        return page
    }
}
