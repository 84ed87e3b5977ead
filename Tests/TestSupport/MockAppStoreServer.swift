import AppStoreNotifications
import AppStoreServerAPI
import Crypto
import Foundation
import Synchronization

/// A local stand-in for the App Store Server API's Get Notification History and Get All Subscription Statuses, on
/// 127.0.0.1 and a port of its own, for the tests of `churn fetch`, `churn gaps` and `churn repair`.
///
/// Like Apple, it checks every request's token (ES256 signature against the test key's public key, header `alg`,
/// `kid` and `typ`, claims `iss`, `aud`, `bid`, `iat` and `exp` at most an hour apart and not expired) and answers
/// 401 to a bad one; serves the notifications signed in `[startDate, endDate)` (and of the filters) in pages of
/// ``Configuration/pageSize``, oldest first, each with a token for the next; and refuses a token issued for another
/// request body. A request by `transactionId` gets the notifications of that subscription only, those kept from the
/// ranges (``HistoryFixture/Notification/isTransactionOnly``) included, and 404 with TransactionIdNotFoundError
/// (`{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`) for a transaction id it knows nothing of or
/// lists in ``Configuration/historyNotFound``. `GET /inApps/v1/subscriptions/{id}` answers with the configured
/// ``StatusItem`` of the subscription, or 404 (4040010). ``Fault``s script 429, 500, one of Apple's retryable errors
/// (404 with 4040002 by default), a malformed page or an expired token at given requests, whichever the endpoint.
///
/// Rate limits as Apple's "Identifying rate limits" describes them: a 429 carries `Retry-After` as "a UNIX time, in
/// milliseconds, that informs you when you can next send a request", and every request before that instant is
/// answered 429 again (with the same `Retry-After`), so a client that reads the header another way is refused.
///
/// It listens on a ``LoopbackHTTPServer``, whose threads are not Swift's cooperative pool, so a test may block a
/// cooperative thread waiting for a `churn` process while the mock answers that process; a test of the client alone
/// may take ``transport`` instead, the same answers in process, with no socket.
package final class MockAppStoreServer: HTTPTransport {
    /// What the server knows and how it misbehaves.
    package struct Configuration: Sendable {
        package var keyID: String
        package var issuerID: String
        package var bundleID: String
        /// The public half of the key that must sign the tokens.
        package var publicKey: P256.Signing.PublicKey
        package var notifications: [HistoryFixture.Notification]
        package var pageSize = 5
        package var faults: [Fault] = []
        /// Get All Subscription Statuses' answer for each original transaction id.
        package var statuses: [String: StatusItem] = [:]
        /// Transaction ids whose notification history is answered 404 (4040010) even though the server knows them:
        /// Apple's TransactionIdNotFoundError page says "In rare cases, you might get this error for transaction IDs
        /// that previously returned data successfully".
        package var historyNotFound: Set<String> = []
        /// Get Transaction History's signed transactions for each original transaction id, oldest first.
        package var transactions: [String: [String]] = [:]
        /// Signed transactions per Get Transaction History answer (Apple's maximum is 20).
        package var transactionPageSize = 20

        package init(
            keyID: String, issuerID: String, bundleID: String, publicKey: P256.Signing.PublicKey,
            notifications: [HistoryFixture.Notification], pageSize: Int = 5, faults: [Fault] = []
        ) {
            self.keyID = keyID
            self.issuerID = issuerID
            self.bundleID = bundleID
            self.publicKey = publicKey
            self.notifications = notifications
            self.pageSize = pageSize
            self.faults = faults
        }
    }

    /// One subscription's item in a Get All Subscription Statuses answer.
    package struct StatusItem: Sendable {
        /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        package var status: Int
        package var signedTransactionInfo: String
        package var signedRenewalInfo: String
        package var subscriptionGroupIdentifier = "group-1"

        package init(status: Int, signedTransactionInfo: String, signedRenewalInfo: String) {
            self.status = status
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
        }
    }

    /// A scripted misbehaviour, by the number of the request it answers (from 1, counting every request).
    package enum Fault: Sendable, Equatable {
        /// 429 (RateLimitExceededError, 4290000) with this `Retry-After`.
        case tooManyRequests(request: Int, retryAfter: RetryAfter)
        /// One of Apple's retryable errors: 404 with `code` (4040002 AccountNotFoundRetryableError, 4040004,
        /// 4040006), or 500 for 5000001 (GeneralInternalRetryableError).
        case retryableError(request: Int, code: Int = 4_040_002)
        /// 500 with an error body.
        case serverError(request: Int)
        /// 200 with the page cut in half.
        case malformedPage(request: Int)
        /// 503 to every request.
        case alwaysUnavailable
        /// 503 to this request and every later one.
        case unavailableFrom(request: Int)
    }

    /// A `Retry-After` header of a 429.
    package enum RetryAfter: Sendable, Equatable {
        /// Apple's form: the UNIX time in milliseconds this long after the answer; the server refuses every request
        /// before it.
        case after(Duration)
        /// Any other value, sent as given (delay-seconds, an HTTP date, garbage); nothing is refused for it.
        case verbatim(String)
    }

    /// One request as the server saw it, and its answer.
    package struct Request: Sendable {
        /// The method and path, e.g. `GET /inApps/v1/subscriptions/1000`.
        package var path = ""
        /// The `Authorization` header as sent.
        package var authorization: String?
        /// The pagination token asked for.
        package var paginationToken: String?
        /// The notifications served (empty unless the status is 200 and the page whole).
        package var served: [String]
        package var status: Int
        /// Why the token was refused, if it was.
        package var authenticationProblem: String?
        /// The `Retry-After` header of the answer, if it had one.
        package var retryAfter: String?
        package var body: [String: String]
    }

    private struct State {
        var requests: [Request] = []
        /// Token → (offset of the page it asks for, the request body it belongs to).
        var tokens: [String: (offset: Int, fingerprint: String)] = [:]
        var expiredTokens: Set<String> = []
        var tokenCounter = 0
        var faults: [Fault]
        /// The instant a 429 named (Unix ms) and its header: requests before it are answered 429 again.
        var limitedUntil: (milliseconds: Int64, header: String)?
    }

    private let configuration: Configuration
    private let state: Mutex<State>
    /// The port it listens on; 0 while it answers in process only.
    private let portNumber = Mutex(0)

    private init(configuration: Configuration) {
        self.configuration = configuration
        self.state = Mutex(State(faults: configuration.faults))
    }

    /// Runs `body` with a server listening on the loopback interface, and stops it afterwards.
    package static func with<Result>(
        _ configuration: Configuration,
        _ body: (MockAppStoreServer) async throws -> Result
    ) async throws -> Result {
        let server = MockAppStoreServer(configuration: configuration)
        let listener = try LoopbackHTTPServer { server.answer($0) }
        defer { listener.stop() }
        server.portNumber.withLock { $0 = listener.port }
        return try await body(server)
    }

    /// Runs `body` with a server that answers in process (as an ``HTTPTransport``), with no socket.
    package static func inProcess<Result>(
        _ configuration: Configuration,
        _ body: (MockAppStoreServer) async throws -> Result
    ) async throws -> Result {
        try await body(MockAppStoreServer(configuration: configuration))
    }

    /// The answer to `request`, as the server gives it over a socket.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        answer(request)
    }

    /// `http://127.0.0.1:<port>`, for `--base-url` (any port will do for ``inProcess(_:_:)``).
    package var baseURL: String { "http://127.0.0.1:\(portNumber.withLock { $0 })" }

    /// The request timeout of clients in tests that count requests and tries.
    ///
    /// Long on purpose: the suite's synchronous tests wait for `churn` processes on threads of Swift's cooperative
    /// pool, which has one thread per core, so on a small machine a client may get no thread for a minute while its
    /// answer waits. With the client's default timeout that try then times out and is tried again, and the counts
    /// such a test checks change; with this one it only finishes later.
    package static let patientRequestTimeout: Duration = .seconds(900)

    /// Every request so far, in order.
    package var requests: [Request] { state.withLock { $0.requests } }

    /// The `Retry-After` values of the 429s answered so far, in order.
    package var retryAfterHeaders: [String] { state.withLock { $0.requests.compactMap(\.retryAfter) } }

    /// Replaces the scripted faults (request numbers still count from the server's first request).
    package func setFaults(_ faults: [Fault]) {
        state.withLock { $0.faults = faults }
    }

    /// Makes every token handed out so far expired (Apple's 4000017).
    package func expireTokens() {
        state.withLock { state in state.expiredTokens.formUnion(state.tokens.keys) }
    }

    // MARK: - Answers

    fileprivate func answer(_ request: HTTPRequest) -> HTTPResponse {
        state.withLock { state in
            let number = state.requests.count + 1
            var record = Request(
                authorization: request.header("Authorization"), paginationToken: nil, served: [], status: 0,
                authenticationProblem: nil, body: [:]
            )
            let answer = respond(number: number, request: request, state: &state, record: &record)
            record.status = answer.status
            record.retryAfter = answer.header("Retry-After")
            state.requests.append(record)
            return answer
        }
    }

    private func respond(number: Int, request: HTTPRequest, state: inout State, record: inout Request) -> HTTPResponse {
        let method = request.method
        let body = request.body ?? []
        let components = URLComponents(string: request.url)
        let token = components?.queryItems?.first { $0.name == "paginationToken" }?.value
        record.paginationToken = token
        let path = components?.path ?? ""
        record.path = "\(method.rawValue) \(path)"
        let statusesPath = "/inApps/v1/subscriptions/"
        let isStatuses = method == .get && path.hasPrefix(statusesPath)
        let transactionsPath = "/inApps/v2/history/"
        let isTransactions = method == .get && path.hasPrefix(transactionsPath)
        guard isStatuses || isTransactions || (method == .post && path == "/inApps/v1/notifications/history") else {
            return HTTPResponse(status: 404)
        }
        if let problem = authenticationProblem(request.header("Authorization")) {
            record.authenticationProblem = problem
            return HTTPResponse(status: 401, body: Array("Unauthenticated".utf8))
        }
        if let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            record.body = json.mapValues { "\($0)" }
        }
        let nowMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)
        if let limit = state.limitedUntil, nowMilliseconds < limit.milliseconds {
            var answer = Self.error(429, code: 4_290_000, "Rate limit exceeded.")
            answer.headers.append(("Retry-After", limit.header))
            return answer
        }
        for fault in state.faults {
            switch fault {
            case .alwaysUnavailable:
                return Self.error(503, code: 5_000_000, "An unknown error occurred.")
            case .unavailableFrom(let first) where number >= first:
                return Self.error(503, code: 5_000_000, "An unknown error occurred.")
            case .tooManyRequests(number, let retryAfter):
                var answer = Self.error(429, code: 4_290_000, "Rate limit exceeded.")
                switch retryAfter {
                case .after(let wait):
                    let (seconds, attoseconds) = wait.components
                    let until = nowMilliseconds + seconds * 1000 + attoseconds / 1_000_000_000_000_000
                    state.limitedUntil = (until, String(until))
                    answer.headers.append(("Retry-After", String(until)))
                case .verbatim(let value):
                    answer.headers.append(("Retry-After", value))
                }
                return answer
            case .retryableError(number, let code):
                // Apple's documentation gives these errors no message text: the mock's is its own.
                return Self.error(
                    code == 5_000_001 ? 500 : 404, code: code,
                    "A retryable error (\(code)): try again.")
            case .serverError(number):
                return Self.error(500, code: 5_000_000, "An unknown error occurred.")
            default:
                break
            }
        }
        if isStatuses {
            return statuses(of: String(path.dropFirst(statusesPath.count)))
        }
        if isTransactions {
            let query = components?.queryItems ?? []
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            record.paginationToken = value("revision")
            return transactionHistory(
                of: String(path.dropFirst(transactionsPath.count)), revision: value("revision"),
                purchased: (value("startDate").flatMap { Int64($0) } ?? .min)..<(value("endDate").flatMap { Int64($0) }
                    ?? .max))
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let startDate = (json["startDate"] as? NSNumber)?.int64Value,
            let endDate = (json["endDate"] as? NSNumber)?.int64Value
        else {
            return Self.error(400, code: 4_000_015, "Invalid request start date.")
        }
        record.body = json.mapValues { "\($0)" }
        guard startDate < endDate else {
            return Self.error(400, code: 4_000_013, "Invalid date range.")
        }
        let type = json["notificationType"] as? String
        let onlyFailures = (json["onlyFailures"] as? NSNumber)?.boolValue ?? false
        let transaction = json["transactionId"] as? String
        let fingerprint = "\(startDate)-\(endDate)-\(type ?? "")-\(onlyFailures)-\(transaction ?? "")"
        var offset = 0
        if let token {
            if state.expiredTokens.contains(token) {
                return Self.error(400, code: 4_000_017, "Pagination token expired.")
            }
            guard let known = state.tokens[token], known.fingerprint == fingerprint else {
                return Self.error(400, code: 4_000_014, "Invalid pagination token.")
            }
            offset = known.offset
        }
        if let transaction, !knows(transaction) || configuration.historyNotFound.contains(transaction) {
            return Self.error(404, code: 4_040_010, "Transaction id not found.")
        }
        let matching = configuration.notifications
            .filter { $0.signedDate >= startDate && $0.signedDate < endDate }
            .filter { type == nil || $0.type == type }
            .filter { !onlyFailures || $0.isFailure }
            .filter { transaction == nil ? !$0.isTransactionOnly : $0.originalTransactionId == transaction }
            .sorted { ($0.signedDate, $0.uuid) < ($1.signedDate, $1.uuid) }
        let page = Array(matching.dropFirst(offset).prefix(configuration.pageSize))
        let hasMore = offset + page.count < matching.count
        var response: [String: Any] = [
            "hasMore": hasMore,
            "notificationHistory": page.map { notification in
                [
                    "signedPayload": notification.signedPayload,
                    "sendAttempts": [
                        [
                            "attemptDate": notification.signedDate + 1_000,
                            "sendAttemptResult": notification.isFailure ? "NO_RESPONSE" : "SUCCESS",
                        ]
                    ],
                ] as [String: Any]
            },
        ]
        if hasMore {
            state.tokenCounter += 1
            let next = "token-\(state.tokenCounter)-\(UUID().uuidString.prefix(8))"
            state.tokens[next] = (offset + page.count, fingerprint)
            response["paginationToken"] = next
        }
        let bytes = Array((try? JSONSerialization.data(withJSONObject: response, options: [.sortedKeys])) ?? Data())
        if state.faults.contains(.malformedPage(request: number)) {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: Array(bytes.prefix(bytes.count / 2))
            )
        }
        record.served = page.map(\.uuid)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: bytes)
    }

    /// Whether the server knows `transactionId`: a notification of its subscription, or a status item.
    private func knows(_ transactionId: String) -> Bool {
        configuration.statuses[transactionId] != nil
            || configuration.notifications.contains { $0.originalTransactionId == transactionId }
    }

    /// Get All Subscription Statuses for `transactionId`: its configured item, in one group.
    private func statuses(of transactionId: String) -> HTTPResponse {
        guard let item = configuration.statuses[transactionId] else {
            return Self.error(404, code: 4_040_010, "Transaction id not found.")
        }
        let response: [String: Any] = [
            "environment": "Production", "bundleId": configuration.bundleID, "appAppleId": 1_234,
            "data": [
                [
                    "subscriptionGroupIdentifier": item.subscriptionGroupIdentifier,
                    "lastTransactions": [
                        [
                            "status": item.status, "originalTransactionId": transactionId,
                            "signedTransactionInfo": item.signedTransactionInfo,
                            "signedRenewalInfo": item.signedRenewalInfo,
                        ] as [String: Any]
                    ],
                ] as [String: Any]
            ],
        ]
        let bytes = Array((try? JSONSerialization.data(withJSONObject: response, options: [.sortedKeys])) ?? Data())
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: bytes)
    }

    /// Get Transaction History for `transactionId`, as Apple's HistoryResponse: of the configured transactions (in
    /// their order, which stands for Apple's "recently modified date"), those whose `purchaseDate` is in `purchased`
    /// (`startDate` and `endDate`), up to ``Configuration/transactionPageSize`` after `revision`, `hasMore`, and the
    /// `revision` of the next set; 404 (4040010) for a transaction id it knows nothing of, 400 (4000005
    /// InvalidRequestRevisionError) for a revision it did not hand out.
    private func transactionHistory(of transactionId: String, revision: String?, purchased: Range<Int64>)
        -> HTTPResponse
    {
        guard knows(transactionId) || configuration.transactions[transactionId] != nil else {
            return Self.error(404, code: 4_040_010, "Transaction id not found.")
        }
        var offset = 0
        if let revision {
            guard revision.hasPrefix("revision-"), let value = Int(revision.dropFirst("revision-".count)) else {
                return Self.error(400, code: 4_000_005, "Invalid request revision.")
            }
            offset = value
        }
        let all = (configuration.transactions[transactionId] ?? []).filter { token in
            Self.purchaseDate(of: token).map(purchased.contains) ?? false
        }
        let page = Array(all.dropFirst(offset).prefix(configuration.transactionPageSize))
        let next = offset + page.count
        let response: [String: Any] = [
            "revision": "revision-\(next)", "hasMore": next < all.count, "bundleId": configuration.bundleID,
            "appAppleId": 1_234, "environment": "Production", "signedTransactions": page,
        ]
        let bytes = Array((try? JSONSerialization.data(withJSONObject: response, options: [.sortedKeys])) ?? Data())
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: bytes)
    }

    /// The `purchaseDate` of a signed transaction, read off its payload.
    private static func purchaseDate(of token: String) -> Int64? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1].utf8),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        return (object["purchaseDate"] as? NSNumber)?.int64Value
    }

    private static func error(_ status: Int, code: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: Array("{\"errorCode\":\(code),\"errorMessage\":\"\(message)\"}".utf8)
        )
    }

    /// Why the `Authorization` header is not a token Apple would accept; nil when it is.
    private func authenticationProblem(_ header: String?) -> String? {
        guard let header, header.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = header.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerJSON = Base64URL.decode(parts[0].utf8),
            let claimsJSON = Base64URL.decode(parts[1].utf8), let signature = Base64URL.decode(parts[2].utf8),
            let jwtHeader = try? JSONSerialization.jsonObject(with: headerJSON) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsJSON) as? [String: Any]
        else { return "not a JWT" }
        guard jwtHeader["alg"] as? String == "ES256" else { return "alg is not ES256" }
        guard jwtHeader["kid"] as? String == configuration.keyID else { return "wrong kid" }
        guard jwtHeader["typ"] as? String == "JWT" else { return "typ is not JWT" }
        guard claims["iss"] as? String == configuration.issuerID else { return "wrong iss" }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { return "wrong aud" }
        guard claims["bid"] as? String == configuration.bundleID else { return "wrong bid" }
        guard let issuedAt = (claims["iat"] as? NSNumber)?.int64Value,
            let expiresAt = (claims["exp"] as? NSNumber)?.int64Value
        else { return "iat or exp missing" }
        let now = Int64(Date().timeIntervalSince1970)
        guard issuedAt <= now + 60 else { return "iat in the future" }
        guard expiresAt > now else { return "expired" }
        guard expiresAt - issuedAt <= 3600 else { return "valid for more than an hour" }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            configuration.publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "bad signature" }
        return nil
    }
}
