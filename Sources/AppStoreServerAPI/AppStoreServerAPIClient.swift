import AppStoreNotifications
import Foundation
import Logging
import Synchronization

/// Calls the App Store Server API's Get Notification History, with a fresh token whenever the last one is about to
/// expire and with retries within a ``RetryPolicy``.
///
/// Redirects are refused (a redirect would carry the token to another host), and plain `http` is refused except to
/// the loopback interface, where the tests' mock server listens. Nothing logged carries the token or the key.
package final class AppStoreServerAPIClient: Sendable {
    /// The path of Get Notification History.
    package static let historyPath = "/inApps/v1/notifications/history"

    /// Apple's base URL of an environment: `https://api.storekit.apple.com` for Production,
    /// `https://api.storekit-sandbox.apple.com` for Sandbox; nil for the environments without a server.
    ///
    /// These are the domains Apple recommends since 2026-05-05
    /// ([changelog](https://developer.apple.com/documentation/appstoreserverapi/app-store-server-api-changelog));
    /// the older ones, ``previousBaseURL(for:)``, are still served and ``checkedBaseURL(_:)`` accepts them.
    package static func baseURL(for environment: Environment) -> String? {
        switch environment {
        case .production: "https://api.storekit.apple.com"
        case .sandbox: "https://api.storekit-sandbox.apple.com"
        case .xcode, .localTesting: nil
        }
    }

    /// The domain Apple recommended before 2026-05-05 for an environment: `https://api.storekit.itunes.apple.com`,
    /// `https://api.storekit-sandbox.itunes.apple.com`; still served, for `--base-url` where only it is allowed.
    package static func previousBaseURL(for environment: Environment) -> String? {
        switch environment {
        case .production: "https://api.storekit.itunes.apple.com"
        case .sandbox: "https://api.storekit-sandbox.itunes.apple.com"
        case .xcode, .localTesting: nil
        }
    }

    /// Checks a base URL and takes off a trailing `/`.
    /// - Throws: ``AppStoreServerAPIError/invalidConfiguration(_:)`` for anything but `https://host[:port][/path]`,
    ///   or `http://` to `127.0.0.1`, `::1` or `localhost`.
    package static func checkedBaseURL(_ text: String) throws -> String {
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else {
            throw AppStoreServerAPIError.invalidConfiguration(
                "the base URL \(text) is not of the form https://host[:port][/path]"
            )
        }
        switch scheme {
        case "https":
            return url
        case "http" where ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()):
            return url
        default:
            throw AppStoreServerAPIError.invalidConfiguration(
                "the base URL \(text) must use https (plain http only to 127.0.0.1 or localhost): the token would travel in clear"
            )
        }
    }

    private let transport: any HTTPTransport
    private let baseURL: String
    private let tokens: Mutex<TokenIssuer>
    private let retry: RetryPolicy
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void

    private init(
        transport: any HTTPTransport,
        baseURL: String,
        tokens: TokenIssuer,
        retry: RetryPolicy,
        logger: Logger,
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.transport = transport
        self.baseURL = baseURL
        self.tokens = Mutex(tokens)
        self.retry = retry
        self.logger = logger
        self.now = now
        self.sleep = sleep
    }

    /// Runs `body` with a client whose connections close when it returns or throws.
    /// - Parameters:
    ///   - baseURL: Apple's (``baseURL(for:)``) or another one that ``checkedBaseURL(_:)`` accepts.
    ///   - tokens: signs the requests.
    ///   - retry: how often and how long a request is tried.
    ///   - requestTimeout: the longest one try may take, connecting and reading the whole answer.
    ///   - transport: what carries the requests; nil for a ``URLSessionTransport`` with `requestTimeout`, closed
    ///     when `body` ends (tests may answer in process).
    ///   - now: the clock tokens are issued by (for tests).
    ///   - sleep: how the client waits between tries (for tests).
    /// - Throws: ``AppStoreServerAPIError``, or what `body` throws.
    package static func withClient<Result>(
        baseURL: String,
        tokens: TokenIssuer,
        retry: RetryPolicy,
        requestTimeout: Duration = .seconds(60),
        transport: (any HTTPTransport)? = nil,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        _ body: (AppStoreServerAPIClient) async throws -> Result
    ) async throws -> Result {
        let checked = try checkedBaseURL(baseURL)
        guard let transport else {
            let session = URLSessionTransport(timeout: requestTimeout)
            defer { session.close() }
            return try await withClient(
                baseURL: checked, tokens: tokens, retry: retry, transport: session, logger: logger, now: now,
                sleep: sleep, body
            )
        }
        let client = AppStoreServerAPIClient(
            transport: transport, baseURL: checked, tokens: tokens, retry: retry, logger: logger, now: now, sleep: sleep
        )
        return try await body(client)
    }

    /// One page of Get Notification History, tried again on 429, 5xx, Apple's retryable error codes, a malformed page
    /// or a network failure, within the retry policy.
    /// - Parameters:
    ///   - request: the range and filters; the same for every page of a range.
    ///   - paginationToken: the previous page's token; nil for the first page.
    ///   - onMalformed: gets each malformed page before it is requested again, to keep it.
    /// - Throws: ``AppStoreServerAPIError`` (`authenticationFailed` at once, `rejected` for other 4xx, `retryLater`,
    ///   `stillFailing` or `unavailable` past the retry bounds), or what `onMalformed` throws.
    package func notificationHistoryPage(
        _ request: NotificationHistoryRequest,
        paginationToken: String?,
        onMalformed: (MalformedPage) throws -> Void = { _ in }
    ) async throws -> NotificationHistoryPage {
        let body = try JSONEncoder().encode(request)
        var url = baseURL + Self.historyPath
        if let paginationToken {
            url += "?paginationToken=" + Self.percentEncoded(paginationToken)
        }
        let (response, responseBody, attempts) = try await send(
            .post, url: url, body: Array(body), decode: Self.decodePage
        ) { responseBody, reason, attempt in
            try onMalformed(
                MalformedPage(body: responseBody, reason: reason, requestedToken: paginationToken, attempt: attempt)
            )
        }
        logger.debug(
            "history page received",
            metadata: [
                "history.notifications": "\(response.notificationHistory?.count ?? 0)",
                "history.hasMore": "\(response.hasMore == true)", "history.attempts": "\(attempts)",
            ]
        )
        return NotificationHistoryPage(
            body: responseBody, response: response, requestedToken: paginationToken, attempts: attempts
        )
    }

    /// The path of Get All Subscription Statuses, before the transaction id.
    package static let statusesPath = "/inApps/v1/subscriptions/"

    /// Get All Subscription Statuses for the customer of `transactionId` (an original transaction id will do): the
    /// status and the latest signed transaction and renewal info of each of their subscriptions, by group. Tried
    /// again on 429, 5xx, Apple's retryable error codes, a malformed answer or a network failure, within the retry
    /// policy, as history pages are.
    ///
    /// [Get All Subscription Statuses](https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses)
    /// - Returns: the decoded answer, its signed fields still tokens, and the tries it took.
    /// - Throws: ``AppStoreServerAPIError`` (`authenticationFailed` at once, `rejected` for other 4xx, such as an
    ///   unknown transaction id, `unavailable` past the retry bounds).
    package func subscriptionStatuses(transactionId: String) async throws -> (response: StatusResponse, attempts: Int) {
        let url = baseURL + Self.statusesPath + Self.percentEncoded(transactionId)
        let (response, _, attempts) = try await send(.get, url: url, body: nil, decode: Self.decodeStatuses) {
            _, reason, attempt in
            logger.warning(
                "a malformed status answer; requesting it again",
                metadata: ["statuses.reason": "\(reason)", "statuses.attempt": "\(attempt)"]
            )
        }
        logger.debug(
            "statuses received",
            metadata: ["statuses.groups": "\(response.data?.count ?? 0)", "statuses.attempts": "\(attempts)"]
        )
        return (response, attempts)
    }

    /// The path of Get Transaction History (version 2), before the transaction id.
    package static let transactionHistoryPath = "/inApps/v2/history/"

    /// One set (up to 20) of the customer's auto-renewable subscription transactions purchased in
    /// [`purchasedFrom`, `purchasedBefore`) from Get Transaction History. Apple sorts them "by their recently
    /// modified date", not by purchase, so a caller reads every set. Tried again as history pages are.
    ///
    /// [Get Transaction History](https://developer.apple.com/documentation/appstoreserverapi/get-transaction-history):
    /// `startDate` ("The results include a transaction if its purchaseDate is equal to or greater than the
    /// startDate"), `endDate` ("if its purchaseDate is less than the endDate"), `productType`, and `revision`, with
    /// "the same query parameters from the initial request" on every later one.
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer (an original transaction id will do).
    ///   - purchasedFrom: `startDate` (Unix ms).
    ///   - purchasedBefore: `endDate` (Unix ms).
    ///   - revision: the previous answer's `revision`; nil for the first set.
    /// - Returns: the decoded answer, its signed transactions still tokens.
    /// - Throws: ``AppStoreServerAPIError`` (`rejected` for an unknown transaction id, 404 with 4040010).
    package func transactionHistory(
        transactionId: String, purchasedFrom: Int64, purchasedBefore: Int64, revision: String?
    ) async throws -> HistoryResponse {
        var url =
            baseURL + Self.transactionHistoryPath + Self.percentEncoded(transactionId)
            + "?startDate=\(purchasedFrom)&endDate=\(purchasedBefore)&productType=AUTO_RENEWABLE"
        if let revision { url += "&revision=" + Self.percentEncoded(revision) }
        let (response, _, attempts) = try await send(.get, url: url, body: nil, decode: Self.decodeHistory) {
            _, reason, attempt in
            logger.warning(
                "a malformed transaction history answer; requesting it again",
                metadata: ["transactions.reason": "\(reason)", "transactions.attempt": "\(attempt)"]
            )
        }
        logger.debug(
            "transaction history received",
            metadata: [
                "transactions.count": "\(response.signedTransactions?.count ?? 0)",
                "transactions.hasMore": "\(response.hasMore == true)", "transactions.attempts": "\(attempts)",
            ]
        )
        return response
    }

    private static func decodeHistory(_ body: [UInt8]) -> Decoded<HistoryResponse> {
        do {
            let response = try NotificationDecoder.decodeHistoryResponse(from: Data(body))
            guard response.signedTransactions != nil else { return .malformed("no signedTransactions") }
            guard response.hasMore != true || response.revision != nil else {
                return .malformed("hasMore without a revision")
            }
            return .value(response)
        } catch {
            return .malformed(error.description)
        }
    }

    /// A 200 answer's body: a usable value, or why it is not one.
    /// An answer's body read: the value, or why it is not a usable answer (the reason a ``MalformedPage`` keeps).
    package enum Decoded<Value> {
        case value(Value)
        case malformed(String)
    }

    /// Sends one request until it gets a usable answer, trying again on 429, 5xx, one of Apple's retryable error codes
    /// (``AppStoreServerAPIError/retryableErrorCodes``), a malformed answer or a network failure within the retry
    /// policy, waiting as long as `Retry-After` asks.
    /// - Parameter onMalformed: gets each malformed answer's body, the reason and the try, before it is tried again.
    /// - Returns: the decoded answer, its body as received, and the tries it took.
    /// - Throws: ``AppStoreServerAPIError``: `retryLater` as soon as a `Retry-After` names an instant past the retry
    ///   bound, `stillFailing` when a retryable error code was the last answer, `unavailable` otherwise past the
    ///   bounds.
    private func send<Value>(
        _ method: HTTPRequest.Method,
        url: String,
        body: [UInt8]?,
        decode: ([UInt8]) -> Decoded<Value>,
        onMalformed: ([UInt8], String, Int) throws -> Void
    ) async throws -> (Value, [UInt8], Int) {
        let started = ContinuousClock.now
        var waited = Duration.zero
        var attempt = 0
        while true {
            attempt += 1
            let problem: String
            var retryAfter: Date?
            // The last answer, when it was one of Apple's retryable error codes.
            var retryable: (status: Int, payload: ErrorPayload?)?
            var answered: (status: Int, payload: ErrorPayload?)?
            do {
                let answer = try await exchange(method, url: url, body: body)
                let (status, responseBody) = (answer.status, answer.body)
                let payload = status == 200 ? nil : Self.errorPayload(responseBody)
                switch status {
                case 200:
                    switch decode(responseBody) {
                    case .value(let value):
                        return (value, responseBody, attempt)
                    case .malformed(let reason):
                        try onMalformed(responseBody, reason, attempt)
                        problem = "a malformed answer (\(reason))"
                    }
                case 401, 403:
                    throw AppStoreServerAPIError.authenticationFailed(status: status, payload: payload)
                case 429, 500...599:
                    problem = "HTTP \(status)" + (payload?.errorCode.map { ", error \($0)" } ?? "")
                    answered = (status, payload)
                    if let code = payload?.errorCode, AppStoreServerAPIError.retryableErrorCodes.contains(code) {
                        retryable = (status, payload)
                    }
                    retryAfter = answer.header("Retry-After").flatMap {
                        RetryPolicy.retryAfterInstant($0, now: now())
                    }
                default:
                    guard let code = payload?.errorCode, AppStoreServerAPIError.retryableErrorCodes.contains(code)
                    else {
                        throw AppStoreServerAPIError.rejected(status: status, payload: payload)
                    }
                    problem = "HTTP \(status), error \(code)"
                    retryable = (status, payload)
                    answered = (status, payload)
                    retryAfter = answer.header("Retry-After").flatMap {
                        RetryPolicy.retryAfterInstant($0, now: now())
                    }
                }
            } catch let error as AppStoreServerAPIError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                problem = Self.noAnswer(error)
            }
            let elapsed = Int((ContinuousClock.now - started).components.seconds)
            let delay = retry.delay(
                afterAttempt: attempt, retryAfter: retryAfter.map { RetryPolicy.wait(until: $0, now: now()) })
            if let retryAfter, let answered, waited + delay > retry.maxWaiting {
                throw AppStoreServerAPIError.retryLater(
                    until: Int64((retryAfter.timeIntervalSince1970 * 1000).rounded(.up)), status: answered.status,
                    payload: answered.payload, maxWaitingSeconds: Int(retry.maxWaiting.components.seconds)
                )
            }
            guard attempt < retry.maxAttempts, waited + delay <= retry.maxWaiting else {
                if let retryable {
                    throw AppStoreServerAPIError.stillFailing(
                        status: retryable.status, payload: retryable.payload, attempts: attempt)
                }
                if attempt >= retry.maxAttempts {
                    throw AppStoreServerAPIError.unavailable(attempts: attempt, seconds: elapsed, last: problem)
                }
                throw AppStoreServerAPIError.unavailable(
                    attempts: attempt, seconds: elapsed,
                    last: "\(problem); waiting \(Self.seconds(delay)) s more would pass the retry bound of "
                        + "\(Self.seconds(retry.maxWaiting)) s"
                )
            }
            logger.info(
                "retrying a request",
                metadata: [
                    "api.attempt": "\(attempt)", "api.problem": "\(problem)", "api.retryIn": "\(Self.seconds(delay))s",
                ]
            )
            try await sleep(delay)
            waited += delay
        }
    }

    /// One request, signed with a token that is valid now: the answer, whatever its status.
    private func exchange(_ method: HTTPRequest.Method, url: String, body: [UInt8]?) async throws -> HTTPResponse {
        let token = try tokens.withLock { try $0.token(at: now()) }
        var headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer \(token.compact)"), ("Accept", "application/json"), ("User-Agent", "churn"),
        ]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        logger.trace(
            "api request",
            metadata: [
                "api.keyID": "\(token.keyID)",
                "api.tokenExpires": "\(Int64(token.expiresAt.timeIntervalSince1970))",
            ]
        )
        return try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
    }

    /// A Get Notification History page's body as the client reads it: a page holds `notificationHistory` and
    /// `hasMore`, and a `paginationToken` while `hasMore` is true.
    package static func decodePage(_ body: [UInt8]) -> Decoded<NotificationHistoryResponse> {
        let response: NotificationHistoryResponse
        do {
            response = try NotificationDecoder.decodeHistoryPage(from: Data(body))
        } catch {
            return .malformed(error.description)
        }
        guard response.notificationHistory != nil else { return .malformed("no notificationHistory") }
        guard let hasMore = response.hasMore else { return .malformed("no hasMore") }
        if hasMore && (response.paginationToken ?? "").isEmpty {
            return .malformed("hasMore is true but there is no paginationToken")
        }
        return .value(response)
    }

    private static func decodeStatuses(_ body: [UInt8]) -> Decoded<StatusResponse> {
        do {
            let response = try NotificationDecoder.decodeStatusResponse(from: Data(body))
            guard response.data != nil else { return .malformed("no data") }
            return .value(response)
        } catch {
            return .malformed(error.description)
        }
    }

    private static func errorPayload(_ body: [UInt8]) -> ErrorPayload? {
        try? JSONDecoder().decode(ErrorPayload.self, from: Data(body))
    }

    /// A query value with everything but unreserved characters percent-encoded.
    private static func percentEncoded(_ value: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? String(Int64(value)) : String(format: "%.1f", value)
    }
}

extension AppStoreServerAPIClient {
    /// A request that got no answer, in one line: `no answer: could not connect to 127.0.0.1:1 (connection refused)`
    /// rather than the nested descriptions of the networking layers.
    static func noAnswer(_ error: any Error) -> String {
        "no answer: \((error as? NoAnswer)?.reason ?? "\(error)")"
    }
}
