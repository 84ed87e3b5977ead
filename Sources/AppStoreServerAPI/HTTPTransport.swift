import Foundation

/// Sends one HTTP request and returns its whole answer: the seam between ``AppStoreServerAPIClient``, which knows
/// Apple's endpoints, tokens and retries, and whatever carries the bytes.
///
/// ``URLSessionTransport`` is the one `churn` uses; tests may answer in process, without a socket, where the socket
/// is not what they check.
package protocol HTTPTransport: Sendable {
    /// The answer to `request`, whatever its status.
    /// - Throws: when no answer arrived (no connection, a timeout, a broken TLS handshake): an error whose
    ///   description says so in one line, or `CancellationError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// A request as the client builds it.
package struct HTTPRequest: Sendable {
    package enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    package var method: Method
    package var url: String
    /// Header names and values, in order.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]?

    package init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, whatever the case of its name.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// An answer: its status, headers and whole body.
package struct HTTPResponse: Sendable {
    package var status: Int
    /// Header names and values, in order.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, whatever the case of its name.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
