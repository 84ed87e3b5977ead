/// An answer with HTTP 200 that is not a usable history page: not JSON, not a page, or a page that says more follow
/// without the token to ask for them. The request is tried again; the body is handed to the caller to keep.
package struct MalformedPage: Sendable {
    /// The response body exactly as received.
    package var body: [UInt8]
    /// What is wrong with it.
    package var reason: String
    /// The pagination token the page was requested with; nil for the first page of a range.
    package var requestedToken: String?
    /// Which try of the request got it, from 1.
    package var attempt: Int

    package init(body: [UInt8], reason: String, requestedToken: String?, attempt: Int) {
        self.body = body
        self.reason = reason
        self.requestedToken = requestedToken
        self.attempt = attempt
    }
}
