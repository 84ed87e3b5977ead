import AppStoreNotifications
import AppStoreServerAPI
import Foundation
import Gzip
import HistoryFetch
import Ingest
import Logging
import PGClient
import TestSupport
import Testing

/// Fetching the history into files against the mock API, and loading what was fetched: each notification once,
/// whatever stopped the fetch on the way.
@Suite struct HistoryFetcherTests {
    let key = APIKeyFixture()
    let history: HistoryFixture
    let harness: LoadHarness
    let exports: ExportDirectory
    var scope: HistoryScope { HistoryScope(environment: "Production", bundleID: key.bundleID) }

    init() throws {
        history = try HistoryFixture(days: 4, perDay: 6, uuidPrefix: "40000000")
        harness = try LoadHarness("fetcher")
        exports = try ExportDirectory()
    }

    func fetch(
        _ server: MockAppStoreServer,
        pagesPerFile: Int = 3,
        retry: RetryPolicy? = nil
    ) async throws -> FetchedRange {
        let ranges = try await fetch(server, end: history.day(4), pagesPerFile: pagesPerFile, retry: retry)
        guard ranges.count == 1, let range = ranges.first else {
            throw FetchError.writeFailed(path: exports.url.path, reason: "\(ranges.count) ranges fetched, not 1")
        }
        return range
    }

    /// Fetches from day 0 to `end`, and returns what each range got.
    func fetch(
        _ server: MockAppStoreServer,
        end: Int64,
        pagesPerFile: Int = 3,
        retry: RetryPolicy? = nil
    ) async throws -> [FetchedRange] {
        let credentials = APICredentials(
            privateKey: key.privateKey, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID
        )
        let fetcher = try HistoryFetcher(
            connection: harness.connection, directory: exports.url.path, pagesPerFile: pagesPerFile, logger: Logger.test
        )
        return try await AppStoreServerAPIClient.withClient(
            baseURL: server.baseURL, tokens: try TokenIssuer(credentials: credentials),
            retry: try retry ?? RetryPolicy(), requestTimeout: MockAppStoreServer.patientRequestTimeout,
            // The waits pass for real, as the mock refuses every request before its Retry-After instant; a backoff
            // is cut to 2 s, longer than any Retry-After here.
            logger: Logger.test, sleep: { try await Task.sleep(for: min($0, .seconds(2))) }
        ) { client in
            try await fetcher.fetch(scope: scope, startDate: history.day(0), endDate: end, client: client)
        }
    }

    /// Loads every complete file of the directory, verified against the fixture's root.
    func loadAll() async throws -> LoadSummary {
        let files = try ExportFiles.expand([exports.url.path], glob: ["*.jsonl.gz"])
        let verifier = JWSVerifier(trustRoots: try JWSVerifier.trustRoots(parsing: history.trustRootDER, from: "root"))
        return try await harness.load(files, policy: AcceptancePolicy(verifier: verifier))
    }

    func storedUUIDs() throws -> [String] {
        try harness.rows("SELECT notification_uuid::text FROM notifications ORDER BY 1").compactMap { $0[0] }
    }

    func directoryNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: exports.url.path).sorted()
    }

    /// The UUIDs the mock served in whole pages, in order.
    func served(_ server: MockAppStoreServer) -> [String] {
        server.requests.flatMap(\.served)
    }

    @Test func theFetchedFilesLoadedHoldEveryNotificationOnceDespite429s500sAndAMalformedPage() async throws {
        let faults: [MockAppStoreServer.Fault] = [
            .tooManyRequests(request: 2, retryAfter: .after(.seconds(1))), .serverError(request: 3),
            .malformedPage(request: 5),
        ]
        try await MockAppStoreServer.with(key.mock(history.notifications, pageSize: 4, faults: faults)) { server in
            let range = try await fetch(server)
            #expect(range.pages == 6)
            #expect(range.notifications == 24)
            #expect(range.files.count == 2, "3 pages per file")
            #expect(range.malformedPages.count == 1)
            #expect(served(server).sorted() == history.notifications.map(\.uuid).sorted())

            let names = try directoryNames()
            #expect(!names.contains { $0.hasSuffix(".partial") }, "\(names)")
            #expect(names.contains("quarantine"))
            let kept = try FileManager.default.contentsOfDirectory(
                atPath: exports.url.appendingPathComponent("quarantine").path
            )
            #expect(kept == ["history-\(range.checkpointID)-page-3-try-1.json"])

            let summary = try await loadAll()
            #expect(summary.rejected == 0)
            #expect(summary.loaded == 24)
            #expect(try storedUUIDs() == history.notifications.map(\.uuid).sorted())
            let checkpoint = try harness.rows(
                "SELECT status, pages::text, notifications::text, malformed_pages::text, pagination_token FROM fetch_checkpoints"
            )
            #expect(checkpoint == [["succeeded", "6", "24", "1", nil]])
        }
    }

    @Test func aResumeCutsOffAPageWrittenButNotRecordedAndRequestsOnlyThePagesAfterTheCheckpoint() async throws {
        try await MockAppStoreServer.with(key.mock(history.notifications, pageSize: 4)) { server in
            // The first fetch keeps 4 pages (a whole file and one page of the next), then Apple is unavailable.
            server.setFaults([.unavailableFrom(request: 5)])
            await #expect(throws: AppStoreServerAPIError.self) {
                try await fetch(server, retry: try RetryPolicy(maxAttempts: 1))
            }
            let before = try harness.rows("SELECT status, pages::text, pagination_token FROM fetch_checkpoints")
            #expect(before.first?[0] == "failed")
            #expect(before.first?[1] == "4")
            let checkpointToken = try #require(before.first?[2] ?? nil)
            // A page that was written but whose checkpoint never committed.
            let partial = try #require(try directoryNames().first { $0.hasSuffix(".partial") })
            let partialURL = exports.url.appendingPathComponent(partial)
            let handle = try FileHandle(forWritingTo: partialURL)
            try handle.seekToEnd()
            try handle.write(
                contentsOf: try GzipMember.compress(
                    Array("{\"notificationHistory\":[{\"signedPayload\":\"x.y.z\"}]}\n".utf8)))
            try handle.close()

            let requestsBefore = server.requests.count
            server.setFaults([])
            let range = try await fetch(server)
            #expect(range.resumedAfterPages == 4)
            #expect(range.pages == 2)
            let again = Array(server.requests.dropFirst(requestsBefore))
            #expect(again.map(\.status) == [200, 200])
            #expect(again.first?.paginationToken == checkpointToken)
            #expect(
                Set(served(server)).count == served(server).count, "no notification was served twice"
            )

            let summary = try await loadAll()
            #expect(summary.rejected == 0, "the page written after the checkpoint was cut off")
            #expect(try storedUUIDs() == history.notifications.map(\.uuid).sorted())
            #expect(summary.duplicates == 0)
        }
    }

    @Test func aRangeAskedAgainWithALaterEndResumesTheFirstAndFetchesOnlyTheRest() async throws {
        // As a range ending today does: its end is the moment of the run, later on each run.
        try await MockAppStoreServer.with(key.mock(history.notifications, pageSize: 4)) { server in
            server.setFaults([.unavailableFrom(request: 3)])
            await #expect(throws: AppStoreServerAPIError.self) {
                try await fetch(server, end: history.day(3), retry: try RetryPolicy(maxAttempts: 1))
            }
            let firstRun = server.requests.filter { $0.status == 200 }
            #expect(firstRun.count == 2)
            #expect(try directoryNames().contains { $0.hasSuffix(".partial") })

            server.setFaults([])
            let requestsBefore = server.requests.count
            let ranges = try await fetch(server, end: history.day(4))
            try #require(ranges.count == 2)
            #expect(ranges[0].resumedAfterPages == 2)
            #expect(ranges[0].endDate == history.day(3), "the first range keeps its end")
            #expect(ranges[1].startDate == history.day(3))
            #expect(ranges[1].endDate == history.day(4))
            let asked = server.requests.filter { $0.status == 200 }.map {
                "\($0.body["startDate"] ?? "")/\($0.paginationToken ?? "first")"
            }
            #expect(Set(asked).count == asked.count, "no page requested twice: \(asked)")
            #expect(server.requests.dropFirst(requestsBefore).allSatisfy { $0.status == 200 })
            #expect(Set(served(server)).count == served(server).count, "no notification was served twice")
            #expect(!(try directoryNames()).contains { $0.hasSuffix(".partial") })
            let statuses = try harness.rows("SELECT status FROM fetch_checkpoints ORDER BY id").compactMap { $0[0] }
            #expect(statuses == ["succeeded", "succeeded"])

            let summary = try await loadAll()
            #expect(summary.rejected == 0)
            #expect(try storedUUIDs() == history.notifications.map(\.uuid).sorted())
        }
    }

    @Test func aLostFileIsFetchedAgainFromItsFirstPage() async throws {
        try await MockAppStoreServer.with(key.mock(history.notifications, pageSize: 4)) { server in
            server.setFaults([.unavailableFrom(request: 3)])
            await #expect(throws: AppStoreServerAPIError.self) {
                try await fetch(server, pagesPerFile: 10, retry: try RetryPolicy(maxAttempts: 1))
            }
            let partial = try #require(try directoryNames().first { $0.hasSuffix(".partial") })
            try FileManager.default.removeItem(at: exports.url.appendingPathComponent(partial))

            server.setFaults([])
            let range = try await fetch(server, pagesPerFile: 10)
            #expect(range.restarted)
            #expect(range.pages == 6)
            #expect(range.totalPages == 6)
            let summary = try await loadAll()
            #expect(summary.rejected == 0)
            #expect(try storedUUIDs() == history.notifications.map(\.uuid).sorted())
        }
    }

    @Test func aPaginationTokenThatExpiredMeanwhileStartsTheRangeOver() async throws {
        try await MockAppStoreServer.with(key.mock(history.notifications, pageSize: 4)) { server in
            server.setFaults([.unavailableFrom(request: 3)])
            await #expect(throws: AppStoreServerAPIError.self) {
                try await fetch(server, retry: try RetryPolicy(maxAttempts: 1))
            }
            server.setFaults([])
            server.expireTokens()
            let range = try await fetch(server)
            #expect(range.restarted)
            #expect(range.totalPages == 8, "2 pages kept before, 6 after starting over")
            let summary = try await loadAll()
            #expect(summary.rejected == 0)
            #expect(summary.loaded == 24)
            #expect(try storedUUIDs() == history.notifications.map(\.uuid).sorted())
        }
    }

    @Test func withoutARangeAFetchGoesOnFromTheLastSuccessLessAnHour() async throws {
        try await MockAppStoreServer.with(key.mock(history.notifications, pageSize: 10)) { server in
            let credentials = APICredentials(
                privateKey: key.privateKey, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID
            )
            let fetcher = try HistoryFetcher(
                connection: harness.connection, directory: exports.url.path, logger: Logger.test
            )
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let (first, second) = try await AppStoreServerAPIClient.withClient(
                baseURL: server.baseURL, tokens: try TokenIssuer(credentials: credentials), retry: try RetryPolicy(),
                requestTimeout: MockAppStoreServer.patientRequestTimeout, logger: Logger.test
            ) { client in
                let first = try await fetcher.fetchSinceLastSuccess(scope: scope, client: client, now: now - 3_600_000)
                let second = try await fetcher.fetchSinceLastSuccess(scope: scope, client: client, now: now)
                return (first, second)
            }
            try #require(first.count == 1 && second.count == 1)
            #expect(
                first[0].startDate == now - 3_600_000 - 180 * 86_400_000 + HistoryFetcher.retentionMarginMilliseconds)
            #expect(first[0].notifications == 24)
            #expect(second[0].startDate == now - 3_600_000 - HistoryFetcher.overlapMilliseconds)
            #expect(second[0].endDate == now)
            #expect(second[0].notifications == 0)
            #expect(second[0].files.isEmpty, "a range without notifications leaves no file")
        }
    }
}
