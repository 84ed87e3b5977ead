import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Foundation's `URLSession` as the ``HTTPTransport``: the toolchain's own HTTP client (on Linux it runs over the
/// system's libcurl, with TLS checked against the system's trust store), for a batch job that sends a few kinds of
/// request to one API.
///
/// Nothing is cached and no cookie is kept; redirects are refused (the 3xx answer is returned as it is, so a token
/// never travels to another host); the whole exchange, connecting and reading the whole answer, is bounded by the
/// timeout it was made with.
package final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameter timeout: the longest one exchange may take, and the longest wait for the next bytes.
    package init(timeout: Duration) {
        let seconds = Self.seconds(timeout)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// Lets the requests under way finish and releases the session; it sends nothing afterwards.
    package func close() {
        session.finishTasksAndInvalidate()
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let url = URL(string: request.url) else { throw NoAnswer(reason: "\(request.url) is not a URL") }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            throw NoAnswer(reason: Self.reason(error, url: url))
        }
        guard let answer = response as? HTTPURLResponse else {
            throw NoAnswer(reason: "the answer from \(url.host ?? request.url) is not HTTP")
        }
        let headers = answer.allHeaderFields.compactMap { name, value -> (name: String, value: String)? in
            guard let name = name as? String else { return nil }
            return (name, "\(value)")
        }
        return HTTPResponse(status: answer.statusCode, headers: headers, body: Array(data))
    }

    /// A failure in a few words that mean the same on every platform, with the system's own where none fits.
    static func reason(_ error: URLError, url: URL) -> String {
        let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
        switch error.code {
        case .cannotConnectToHost: return "could not connect to \(host) (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: return "could not find the host \(url.host ?? host)"
        case .timedOut: return "no answer from \(host) within the request timeout"
        case .networkConnectionLost: return "the connection to \(host) was lost"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "TLS with \(host) failed: \(error.localizedDescription)"
        default: return error.localizedDescription
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// Answers every redirect with "don't follow": the client gets the 3xx itself.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}

/// A request that got no answer, and why, in one line.
package struct NoAnswer: Error, CustomStringConvertible {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
