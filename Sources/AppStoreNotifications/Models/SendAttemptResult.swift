/// The outcome of one attempt by the App Store to deliver a notification to the app's server.
///
/// Also used for the older `firstSendAttemptResult` field, which takes the same values.
///
/// [sendAttemptResult](https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult)
package enum SendAttemptResult: String, CaseIterable, Sendable {
    /// The server answered with an HTTP status from 200 to 206.
    case success = "SUCCESS"
    /// The request timed out.
    case timedOut = "TIMED_OUT"
    /// The TLS handshake failed.
    case tlsIssue = "TLS_ISSUE"
    /// The server redirected in a loop.
    case circularRedirect = "CIRCULAR_REDIRECT"
    /// The server did not respond.
    case noResponse = "NO_RESPONSE"
    /// A socket error.
    case socketIssue = "SOCKET_ISSUE"
    /// The response used an unsupported character set.
    case unsupportedCharset = "UNSUPPORTED_CHARSET"
    /// The response was invalid.
    case invalidResponse = "INVALID_RESPONSE"
    /// The connection closed early.
    case prematureClose = "PREMATURE_CLOSE"
    /// The server answered with an HTTP status outside 200 to 206.
    case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    /// Any other failure.
    case other = "OTHER"
}
