/// The body of an App Store Server API error response.
///
/// [Error codes](https://developer.apple.com/documentation/appstoreserverapi/error-codes)
package struct ErrorPayload: Codable, Hashable, Sendable {
    /// Apple's error code, e.g. `4000012` (the start date is too far in the past).
    package var errorCode: Int64?
    /// Apple's description of the error.
    package var errorMessage: String?

    package init(errorCode: Int64? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
