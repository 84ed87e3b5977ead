import AppStoreNotifications
import AppStoreServerAPI
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

/// The client against the mock API, answering in process: every request's token is checked by the mock. What carries
/// the bytes is URLSessionTransportTests' concern.
@Suite struct NotificationHistoryClientTests {
    let key = APIKeyFixture()
    let history: HistoryFixture

    init() throws {
        history = try HistoryFixture(days: 3, perDay: 7)
    }

    var request: NotificationHistoryRequest {
        NotificationHistoryRequest(startDate: history.day(0), endDate: history.day(3))
    }

    /// Records the waits; waits too when `isWaiting` (the mock refuses requests before its Retry-After instant).
    final class Sleeps: Sendable {
        private let delays = Mutex<[Duration]>([])
        let isWaiting: Bool
        init(isWaiting: Bool = false) { self.isWaiting = isWaiting }
        var recorded: [Duration] { delays.withLock { $0 } }
        var sleep: @Sendable (Duration) async throws -> Void {
            { delay in
                self.delays.withLock { $0.append(delay) }
                if self.isWaiting { try await Task.sleep(for: delay) }
            }
        }
    }

    func withClient<Result>(
        _ server: MockAppStoreServer,
        key: APIKeyFixture? = nil,
        retry: RetryPolicy? = nil,
        sleeps: Sleeps = Sleeps(),
        _ body: (AppStoreServerAPIClient) async throws -> Result
    ) async throws -> Result {
        let key = key ?? self.key
        let credentials = APICredentials(
            privateKey: key.privateKey, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID
        )
        return try await AppStoreServerAPIClient.withClient(
            baseURL: server.baseURL, tokens: try TokenIssuer(credentials: credentials),
            retry: try retry ?? RetryPolicy(), transport: server, logger: Logger.test, sleep: sleeps.sleep, body
        )
    }

    /// Every page of the range, and the malformed answers met on the way.
    func allPages(_ client: AppStoreServerAPIClient) async throws -> (
        pages: [NotificationHistoryPage], malformed: [MalformedPage]
    ) {
        var pager = NotificationHistoryPager(client: client, request: request)
        var pages: [NotificationHistoryPage] = []
        var malformed: [MalformedPage] = []
        while let page = try await pager.next(onMalformed: { malformed.append($0) }) {
            pages.append(page)
        }
        return (pages, malformed)
    }

    func uuids(_ pages: [NotificationHistoryPage]) throws -> [String] {
        try pages.flatMap { page in
            try (page.response.notificationHistory ?? []).map { item in
                let token = try #require(item.signedPayload)
                return try #require(try NotificationDecoder.decodeSignedPayload(token).payload.notificationUUID)
            }
        }
    }

    @Test func followsThePaginationTokensToTheLastPageWithAValidTokenOnEveryRequest() async throws {
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, pageSize: 5)) { server in
            let (pages, malformed) = try await withClient(server) { try await allPages($0) }
            #expect(pages.count == 5)
            #expect(malformed.isEmpty)
            #expect(try uuids(pages) == history.notifications.map(\.uuid))
            #expect(pages.dropLast().allSatisfy { $0.hasMore && $0.nextToken != nil })
            #expect(pages.last?.hasMore == false)
            let requests = server.requests
            #expect(requests.count == 5)
            #expect(requests.allSatisfy { $0.authenticationProblem == nil && $0.status == 200 })
            #expect(requests.map(\.paginationToken) == [nil] + pages.dropLast().map(\.nextToken))
        }
    }

    @Test func retriesA429AtTheUnixTimeInMillisecondsAppleNamesAndA500AfterTheBackoff() async throws {
        let faults: [MockAppStoreServer.Fault] = [
            .tooManyRequests(request: 2, retryAfter: .after(.seconds(2))), .serverError(request: 4),
        ]
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, pageSize: 5, faults: faults)) { server in
            let sleeps = Sleeps(isWaiting: true)
            let (pages, _) = try await withClient(server, sleeps: sleeps) { try await allPages($0) }
            #expect(try uuids(pages) == history.notifications.map(\.uuid))
            try #require(sleeps.recorded.count == 2, "\(sleeps.recorded)")
            // Until the instant named, less the time the answer took to arrive: on a loaded machine the answer can
            // arrive after the instant, and then no wait is due. Read as seconds, the digits would ask for decades.
            #expect(sleeps.recorded[0] >= .zero && sleeps.recorded[0] <= .seconds(2), "\(sleeps.recorded)")
            #expect(sleeps.recorded[1] == .seconds(1))
            // The mock refuses every request before the instant: a client that came back early would meet a 429 again.
            #expect(server.requests.map(\.status) == [200, 429, 200, 500, 200, 200, 200])
            #expect(pages.map(\.attempts) == [1, 2, 2, 1, 1])
        }
    }

    @Test(arguments: ["7", "Wed, 21 Oct 2015 07:28:00 GMT"])
    func otherServersDelaySecondsAndHTTPDatesAreStillHonoured(_ value: String) async throws {
        let faults: [MockAppStoreServer.Fault] = [.tooManyRequests(request: 1, retryAfter: .verbatim(value))]
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, faults: faults)) { server in
            let sleeps = Sleeps()
            let (pages, _) = try await withClient(server, sleeps: sleeps) { try await allPages($0) }
            #expect(try uuids(pages) == history.notifications.map(\.uuid))
            #expect(sleeps.recorded == [value == "7" ? .seconds(7) : .zero], "a date past asks for no wait")
        }
    }

    @Test(arguments: [4_040_002, 4_040_004, 4_040_006, 5_000_001])
    func applesRetryableErrorsAreTriedAgain(_ code: Int) async throws {
        let faults: [MockAppStoreServer.Fault] = [.retryableError(request: 2, code: code)]
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, faults: faults)) { server in
            let sleeps = Sleeps()
            let (pages, _) = try await withClient(server, sleeps: sleeps) { try await allPages($0) }
            #expect(try uuids(pages) == history.notifications.map(\.uuid))
            #expect(server.requests.map(\.status)[1] == (code == 5_000_001 ? 500 : 404))
            #expect(sleeps.recorded == [.seconds(1)])
            #expect(pages.map(\.attempts) == [1, 2, 1, 1, 1])
        }
    }

    @Test func aRetryableErrorThatStaysEndsAsStillFailingWithApplesCode() async throws {
        let faults: [MockAppStoreServer.Fault] = (1...3).map { .retryableError(request: $0) }
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, faults: faults)) { server in
            let error = try await #require(throws: AppStoreServerAPIError.self) {
                try await withClient(server, retry: try RetryPolicy(maxAttempts: 3)) { try await allPages($0) }
            }
            guard case .stillFailing(404, _, 3) = error else {
                Issue.record("expected stillFailing after 3 attempts, got \(error)")
                return
            }
            #expect(error.errorCode == 4_040_002)
            #expect(error.isAboutTheRequest)
        }
    }

    @Test func anUnknownTransactionIdIsA404WithTransactionIdNotFoundErrorAndNotRetried() async throws {
        try await MockAppStoreServer.inProcess(key.mock(history.notifications)) { server in
            var request = self.request
            request.transactionId = "9999999999"
            let error = try await #require(throws: AppStoreServerAPIError.self) {
                try await withClient(server) { try await $0.notificationHistoryPage(request, paginationToken: nil) }
            }
            #expect(
                error
                    == .rejected(
                        status: 404,
                        payload: ErrorPayload(errorCode: 4_040_010, errorMessage: "Transaction id not found.")))
            #expect(error.isAboutTheRequest)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aMalformedPageIsHandedOverThenRequestedAgain() async throws {
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, faults: [.malformedPage(request: 3)])) {
            server in
            let (pages, malformed) = try await withClient(server) { try await allPages($0) }
            #expect(try uuids(pages) == history.notifications.map(\.uuid))
            try #require(malformed.count == 1)
            #expect(malformed[0].attempt == 1)
            #expect(malformed[0].requestedToken == server.requests[2].paginationToken)
            #expect(malformed[0].requestedToken != nil)
            #expect(server.requests[3].paginationToken == malformed[0].requestedToken)
            #expect(!malformed[0].body.isEmpty)
        }
    }

    @Test func aWrongKeyStopsAtOnceWith401AndNamesTheLikelyCauses() async throws {
        try await MockAppStoreServer.inProcess(key.mock(history.notifications)) { server in
            let stranger = APIKeyFixture(keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID)
            let error = try await #require(throws: AppStoreServerAPIError.self) {
                try await withClient(server, key: stranger) { try await allPages($0) }
            }
            #expect(error == .authenticationFailed(status: 401, payload: nil))
            #expect(error.description.contains("key id"))
            #expect(error.description.contains("In-App Purchase"))
            #expect(server.requests.count == 1)
            #expect(server.requests[0].authenticationProblem == "bad signature")
        }
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, faults: [.alwaysUnavailable])) {
            server in
            let sleeps = Sleeps()
            let error = try await #require(throws: AppStoreServerAPIError.self) {
                try await withClient(server, retry: try RetryPolicy(maxAttempts: 3), sleeps: sleeps) {
                    try await allPages($0)
                }
            }
            guard case .unavailable(let attempts, _, let last) = error else {
                Issue.record("expected unavailable, got \(error)")
                return
            }
            #expect(attempts == 3)
            #expect(last.contains("HTTP 503"))
            #expect(server.requests.count == 3)
            #expect(sleeps.recorded == [.seconds(1), .seconds(2)])
        }
    }

    @Test func aRetryAfterBeyondTheBoundStopsWithoutWaitingAndNamesTheInstant() async throws {
        let faults: [MockAppStoreServer.Fault] = [.tooManyRequests(request: 1, retryAfter: .after(.seconds(3600)))]
        try await MockAppStoreServer.inProcess(key.mock(history.notifications, faults: faults)) { server in
            let sleeps = Sleeps()
            let asked = Int64(Date().timeIntervalSince1970 * 1000)
            let error = try await #require(throws: AppStoreServerAPIError.self) {
                try await withClient(server, retry: try RetryPolicy(maxWaiting: .seconds(300)), sleeps: sleeps) {
                    try await allPages($0)
                }
            }
            guard case .retryLater(let until, 429, let payload, 300) = error else {
                Issue.record("expected retryLater, got \(error)")
                return
            }
            #expect(payload?.errorCode == 4_290_000)
            #expect(until >= asked + 3_600_000 && until <= asked + 3_660_000, "the instant the mock named")
            #expect(error.description.contains(AppStoreServerAPIError.iso8601(until)))
            #expect(sleeps.recorded.isEmpty)
            #expect(server.requests.count == 1)
        }
    }

    @Test func anotherRefusalIsNotRetriedAndSaysWhatAppleSaid() async throws {
        try await MockAppStoreServer.inProcess(key.mock(history.notifications)) { server in
            let backwards = NotificationHistoryRequest(startDate: history.day(3), endDate: history.day(0))
            let error = try await #require(throws: AppStoreServerAPIError.self) {
                try await withClient(server) { client in
                    try await client.notificationHistoryPage(backwards, paginationToken: nil)
                }
            }
            #expect(error.errorCode == 4_000_013)
            #expect(error.description.contains("the start date is after the end date"))
            #expect(server.requests.count == 1)
        }
    }

    @Test(arguments: [
        ("https://api.storekit.apple.com", true), ("https://proxy.example.com:8443/apple/", true),
        ("http://127.0.0.1:8080", true), ("http://localhost:1", true), ("http://proxy.example.com", false),
        ("ftp://api.storekit.apple.com", false), ("https://user:secret@example.com", false), ("not a url", false),
    ])
    func acceptsHTTPSAndPlainHTTPOnlyOnLoopback(_ url: String, _ accepted: Bool) {
        #expect(((try? AppStoreServerAPIClient.checkedBaseURL(url)) != nil) == accepted)
    }

    @Test func theDefaultHostsAreTheOnesAppleRecommendsSinceMay2026AndTheOlderOnesAreStillAccepted() throws {
        #expect(AppStoreServerAPIClient.baseURL(for: .production) == "https://api.storekit.apple.com")
        #expect(AppStoreServerAPIClient.baseURL(for: .sandbox) == "https://api.storekit-sandbox.apple.com")
        for environment in [Environment.production, .sandbox] {
            let previous = try #require(AppStoreServerAPIClient.previousBaseURL(for: environment))
            #expect(previous.contains(".itunes.apple.com"))
            #expect(try AppStoreServerAPIClient.checkedBaseURL(previous) == previous)
        }
        #expect(AppStoreServerAPIClient.baseURL(for: .xcode) == nil)
    }
}
