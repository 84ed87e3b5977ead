import Crypto
import Foundation
import PGClient
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `churn fetch`, `churn gaps` and `churn nightly --fetch`, the built binary against the mock API and a real database.
@Suite struct FetchTests {
    /// A key, a history, a database schema and a directory for one test.
    struct Workspace {
        let key = APIKeyFixture()
        let history: HistoryFixture
        let root: URL
        let exports: URL
        let schema: TestDatabase.Schema
        let keyFile: String
        let trustRoot: String

        init(days: Int = 5, perDay: Int = 7, keyFileMode: Int = 0o600) throws {
            history = try HistoryFixture(days: days, perDay: perDay, uuidPrefix: "50000000")
            root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
            exports = root.appendingPathComponent("exports")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            schema = try TestDatabase.makeSchema("fetch")
            keyFile = try key.writeKeyFile(in: root, mode: keyFileMode)
            trustRoot = root.appendingPathComponent("root.der").path
            try Data(history.trustRootDER).write(to: URL(fileURLWithPath: trustRoot))
        }

        /// The credentials, from the environment as a crontab would give them.
        var environment: [String: String?] {
            [
                "CHURN_KEY_FILE": keyFile, "CHURN_KEY_ID": key.keyID, "CHURN_ISSUER_ID": key.issuerID,
                "CHURN_BUNDLE_ID": key.bundleID, "CHURN_KEY": nil,
            ]
        }

        func churn(_ arguments: [String], _ server: MockAppStoreServer, fault: String? = nil) throws
            -> ChurnCommand.Result
        {
            var environment = self.environment
            environment["CHURN_FAULT"] = fault
            return try ChurnCommand.run(
                arguments + ["--database-url", schema.url, "--base-url", server.baseURL], in: root,
                environment: environment
            )
        }

        /// `churn fetch` of the whole fixture range.
        func fetch(_ server: MockAppStoreServer, _ extra: [String] = [], fault: String? = nil) throws
            -> ChurnCommand.Result
        {
            try churn(
                [
                    "fetch", "--out", exports.path, "--from", history.dayText(0), "--to",
                    history.dayText(history.days - 1),
                ]
                    + extra,
                server, fault: fault
            )
        }

        /// `churn load` of every history file in `directory` (default: the exports).
        func load(_ directory: URL? = nil) throws -> ChurnCommand.Result {
            let directory = directory ?? exports
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".jsonl.gz") }.sorted().map { directory.appendingPathComponent($0).path }
            return try ChurnCommand.run(
                ["load", "--database-url", schema.url, "--trust-root", trustRoot] + files, in: root
            )
        }

        func stored() throws -> [String] {
            try schema.connect().execute("SELECT notification_uuid::text FROM notifications ORDER BY 1").rows
                .compactMap { $0[0] }
        }

        func exportNames() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: exports.path).sorted()
        }

        var allUUIDs: [String] { history.notifications.map(\.uuid).sorted() }
    }

    @Test func fetchedFilesLoadedHoldTheMocksNotificationsExactlyOnce() async throws {
        let workspace = try Workspace()
        let faults: [MockAppStoreServer.Fault] = [
            .tooManyRequests(request: 2, retryAfter: .after(.seconds(1))), .serverError(request: 4),
            .malformedPage(request: 6),
        ]
        try await MockAppStoreServer.with(
            workspace.key.mock(workspace.history.notifications, pageSize: 4, faults: faults)
        ) {
            server in
            let fetched = try workspace.fetch(server, ["--pages-per-file", "4"])
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(fetched.stdout.contains("9 page(s), 35 notification(s), 3 file(s)"), "\(fetched.stdout)")
            #expect(fetched.stdout.contains("1 malformed page(s) kept in quarantine"))
            #expect(server.requests.allSatisfy { $0.authenticationProblem == nil })
            #expect(server.requests.map(\.status).filter { $0 != 200 } == [429, 500])
            let names = try workspace.exportNames()
            #expect(names.filter { $0.hasSuffix(".jsonl.gz") }.count == 3)
            #expect(!names.contains { $0.hasSuffix(".partial") })

            let loaded = try workspace.load()
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(try workspace.stored() == workspace.allUUIDs)
            let counts = try workspace.schema.connect().execute(
                "SELECT count(*)::text, count(DISTINCT notification_uuid)::text FROM notifications"
            ).rows
            #expect(counts == [["35", "35"]])
        }
    }

    /// The pages served in whole, as the pagination token each was asked with (nil for a range's first page).
    static func pagesServed(_ requests: [MockAppStoreServer.Request]) -> [String] {
        requests.filter { $0.status == 200 }.map { $0.paginationToken ?? "first" }
    }

    @Test func aFetchWaitsUntilTheUnixTimeInMillisecondsApplesRetryAfterNamesAndAsksNoPageTwice() async throws {
        let workspace = try Workspace()
        let faults: [MockAppStoreServer.Fault] = [.tooManyRequests(request: 3, retryAfter: .after(.seconds(2)))]
        try await MockAppStoreServer.with(
            workspace.key.mock(workspace.history.notifications, pageSize: 5, faults: faults)
        ) { server in
            let started = Date()
            let fetched = try workspace.fetch(server)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(Date().timeIntervalSince(started) >= 1.5, "the fetch waited for the instant Apple named")
            // The mock answers 429 again to a request before the instant: exactly one 429 means the wait was right.
            #expect(server.requests.map(\.status).filter { $0 != 200 } == [429])
            let pages = Self.pagesServed(server.requests)
            #expect(pages.count == Set(pages).count, "no page asked twice: \(pages)")
            #expect(server.requests.flatMap(\.served).sorted() == workspace.allUUIDs)
        }
    }

    @Test func aRetryAfterPastTheRetryBoundExits75NamingTheInstantAndTheNextRunResumesAndCompletes() async throws {
        let workspace = try Workspace()
        // Far enough ahead that the instant is still to come when the answer reaches a loaded machine.
        let faults: [MockAppStoreServer.Fault] = [.tooManyRequests(request: 4, retryAfter: .after(.seconds(10)))]
        try await MockAppStoreServer.with(
            workspace.key.mock(workspace.history.notifications, pageSize: 5, faults: faults)
        ) { server in
            let stopped = try workspace.fetch(server, ["--max-retry-wait", "1"])
            #expect(stopped.status == 75, "\(stopped.stderr)")
            let limited = try #require(server.requests.last)
            #expect(limited.status == 429)
            let until = try #require(
                server.requests.count == 4 ? Int64(server.retryAfterHeaders.last ?? "") : nil, "\(server.requests)")
            let instant = ISO8601DateFormatter().string(
                from: Date(timeIntervalSince1970: (Double(until) / 1000).rounded(.up)))
            #expect(stopped.stderr.contains("run the same command again after \(instant)"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("Everything fetched so far is kept"), "\(stopped.stderr)")
            let kept = try workspace.schema.connect().execute("SELECT pages::text FROM fetch_checkpoints").rows
            #expect(kept == [["3"]], "the 3 pages before the 429 are kept")

            // Run again after the instant: it resumes at the 4th page and completes.
            let wait = Double(until) / 1000 - Date().timeIntervalSince1970
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int64(wait * 1000) + 50)) }
            let resumed = try workspace.fetch(server, ["--max-retry-wait", "1"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let pages = Self.pagesServed(server.requests)
            #expect(pages.count == Set(pages).count, "no page asked twice: \(pages)")
            // 35 notifications in 7 pages of 5: 3 kept, the 4th refused once, then asked again and the rest.
            #expect(server.requests.map(\.status) == [200, 200, 200, 429, 200, 200, 200, 200])
            #expect(server.requests[4].paginationToken == server.requests[3].paginationToken)
            #expect(try workspace.load().status == 0)
            #expect(try workspace.stored() == workspace.allUUIDs)
        }
    }

    @Test(arguments: ["fetch.page-committed:3", "fetch.page-written:3"])
    func aFetchKilledAfterSomePagesResumesWithoutRequestingAKeptPageAgain(_ fault: String) async throws {
        let workspace = try Workspace()
        try await MockAppStoreServer.with(workspace.key.mock(workspace.history.notifications, pageSize: 4)) { server in
            let killed = try workspace.fetch(server, ["--pages-per-file", "2"], fault: fault)
            #expect(killed.status == SIGKILL, "the fetch must die at \(fault): \(killed.stderr)")
            let connection = try workspace.schema.connect()
            let checkpoint = try connection.execute(
                "SELECT status, pages::text, pagination_token FROM fetch_checkpoints"
            ).rows
            try #require(checkpoint.count == 1)
            #expect(checkpoint[0][0] == "running")
            let keptPages = Int(checkpoint[0][1] ?? "") ?? -1
            #expect(keptPages == (fault.hasPrefix("fetch.page-committed") ? 3 : 2))
            let firstRun = server.requests
            let keptTokens = Set(firstRun.prefix(keptPages).map { $0.paginationToken ?? "first" })

            let resumed = try workspace.fetch(server, ["--pages-per-file", "2"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stdout.contains("resumed after page \(keptPages)"), "\(resumed.stdout)")
            let secondRun = Array(server.requests.dropFirst(firstRun.count))
            #expect(secondRun.first?.paginationToken == checkpoint[0][2] ?? nil)
            let secondTokens = secondRun.map { $0.paginationToken ?? "first" }
            #expect(Set(secondTokens).count == secondTokens.count, "no page requested twice")
            #expect(keptTokens.isDisjoint(with: secondTokens), "no kept page requested again")
            #expect(keptPages + secondRun.count == 9)
            #expect(!(try workspace.exportNames()).contains { $0.hasSuffix(".partial") })

            let loaded = try workspace.load()
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(loaded.stdout.contains("35 new, 0 already stored, 0 rejected"), "\(loaded.stdout)")
            #expect(try workspace.stored() == workspace.allUUIDs)
        }
    }

    @Test func aFetchToTodayKilledMidwayResumesWhenRunAgainTheSameWay() async throws {
        let workspace = try Workspace()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = formatter.string(from: Date())
        let arguments = [
            "fetch", "--out", workspace.exports.path, "--from", workspace.history.dayText(0), "--to", today,
            "--pages-per-file", "2",
        ]
        try await MockAppStoreServer.with(workspace.key.mock(workspace.history.notifications, pageSize: 4)) { server in
            let killed = try workspace.churn(arguments, server, fault: "fetch.page-committed:3")
            #expect(killed.status == SIGKILL, "\(killed.stderr)")
            #expect(try workspace.exportNames().contains { $0.hasSuffix(".partial") })
            let firstRun = server.requests.count

            let resumed = try workspace.churn(arguments, server)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stdout.contains("resumed after page 3"), "\(resumed.stdout)")
            let asked = server.requests.map { "\($0.body["startDate"] ?? "")/\($0.paginationToken ?? "first")" }
            #expect(Set(asked).count == asked.count, "no page requested twice: \(asked)")
            #expect(server.requests.dropFirst(firstRun).first?.paginationToken != nil, "the second run goes on")
            #expect(!(try workspace.exportNames()).contains { $0.hasSuffix(".partial") })
            let statuses = try workspace.schema.connect().execute(
                "SELECT status FROM fetch_checkpoints ORDER BY id"
            ).rows.compactMap { $0[0] }
            #expect(statuses.allSatisfy { $0 == "succeeded" }, "\(statuses)")

            let loaded = try workspace.load()
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(loaded.stdout.contains("35 new, 0 already stored, 0 rejected"), "\(loaded.stdout)")
            #expect(try workspace.stored() == workspace.allUUIDs)
        }
    }

    @Test func refusedCredentialsStopAtOnceWithExitCode77() async throws {
        let workspace = try Workspace(days: 1)
        let stranger = APIKeyFixture()
        try await MockAppStoreServer.with(stranger.mock(workspace.history.notifications)) { server in
            let result = try workspace.fetch(server)
            #expect(result.status == 77, "\(result.stderr)")
            #expect(result.stderr.contains("refused the credentials (HTTP 401)"))
            #expect(result.stderr.contains("key id"))
            #expect(server.requests.count == 1, "a refused token is not retried")
            #expect(!(try workspace.exportNames()).contains { $0.hasSuffix(".jsonl.gz") })
        }
    }

    @Test func missingCredentialsAreNamedTogetherAndTheIssuerIdMustBeAUUID() throws {
        let workspace = try Workspace(days: 1)
        let range = ["fetch", "--out", workspace.exports.path, "--from", workspace.history.dayText(0)]
        let none: [String: String?] = [
            "CHURN_KEY_FILE": nil, "CHURN_KEY_ID": nil, "CHURN_ISSUER_ID": nil, "CHURN_BUNDLE_ID": nil,
            "CHURN_KEY": nil,
        ]
        let missing = try ChurnCommand.run(range + ["--database-url", workspace.schema.url], environment: none)
        #expect(missing.status == 64, "\(missing.stderr)")
        for name in ["--key-id", "--issuer-id", "--bundle-id", "--key-file", "Users and Access > Integrations"] {
            #expect(missing.stderr.contains(name), "\(name): \(missing.stderr)")
        }
        var badIssuer = workspace.environment
        badIssuer["CHURN_ISSUER_ID"] = "2X9R4HXF34"
        let notUUID = try ChurnCommand.run(range + ["--database-url", workspace.schema.url], environment: badIssuer)
        #expect(notUUID.status == 64, "\(notUUID.stderr)")
        #expect(notUUID.stderr.contains("'2X9R4HXF34' is not a UUID"))
    }

    @Test func aFirstFetchWithNoAnswerLeavesNoFileAndSaysWhyInOneLine() throws {
        let workspace = try Workspace(days: 1)
        let result = try ChurnCommand.run(
            [
                "fetch", "--out", workspace.exports.path, "--from", workspace.history.dayText(0), "--to",
                workspace.history.dayText(0), "--database-url", workspace.schema.url, "--base-url",
                "http://127.0.0.1:1", "--max-attempts", "1",
            ], in: workspace.root, environment: workspace.environment)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(
            result.stderr.contains("(last: no answer: could not connect to 127.0.0.1:1 (connection refused))"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("errno"))
        #expect(try workspace.exportNames().isEmpty)
    }

    @Test func aKeyFileOthersCanReadGetsAWarning() async throws {
        for (mode, warns) in [(0o644, true), (0o640, true), (0o600, false), (0o400, false)] {
            let workspace = try Workspace(days: 1, perDay: 2, keyFileMode: mode)
            try await MockAppStoreServer.with(workspace.key.mock(workspace.history.notifications)) { server in
                let result = try workspace.fetch(server)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.contains("is readable by other users") == warns, "mode \(String(mode, radix: 8))")
            }
        }
    }

    @Test func noSecretInAnyLogLineAtAnyLevel() async throws {
        let workspace = try Workspace(days: 2)
        try await MockAppStoreServer.with(
            workspace.key.mock(workspace.history.notifications, pageSize: 4, faults: [.serverError(request: 2)])
        ) { server in
            var outputs: [String] = []
            for format in ["text", "json"] {
                let fetched = try workspace.fetch(server, ["--log-level", "trace", "--log-format", format])
                #expect(fetched.status == 0, "\(fetched.stderr)")
                outputs += [fetched.stdout, fetched.stderr]
            }
            let gaps = try workspace.churn(
                ["gaps", "--from", workspace.history.dayText(0), "--log-level", "trace"], server
            )
            #expect(gaps.status == 0, "\(gaps.stderr)")
            outputs += [gaps.stdout, gaps.stderr]
            // The key given inline rather than as a file, and a refused one.
            var inline = workspace.environment
            inline["CHURN_KEY_FILE"] = nil
            inline["CHURN_KEY"] = workspace.key.pem
            let fromVariable = try ChurnCommand.run(
                [
                    "nightly", "--fetch", "--verbose", "--database-url", workspace.schema.url, "--base-url",
                    server.baseURL,
                    "--trust-root", workspace.trustRoot, "--reports-root",
                    workspace.root.appendingPathComponent("reports").path,
                    "--log-level", "trace", workspace.exports.path,
                ],
                in: workspace.root, environment: inline
            )
            #expect(fromVariable.status == 0, "\(fromVariable.stderr)")
            outputs += [fromVariable.stdout, fromVariable.stderr]
            let traced = outputs.joined(separator: "\n")
            #expect(traced.contains("trace"), "the runs logged at trace level")

            let tokens = server.requests.compactMap(\.authorization).map { String($0.dropFirst("Bearer ".count)) }
            #expect(tokens.count == server.requests.count)
            var secrets = workspace.key.pemBodyLines + tokens
            secrets += tokens.compactMap { $0.split(separator: ".").last.map(String.init) }
            secrets.append(workspace.key.privateKey.rawRepresentation.base64EncodedString())
            secrets.append(workspace.key.privateKey.rawRepresentation.map { String(format: "%02x", $0) }.joined())
            secrets.append("PRIVATE KEY")
            for secret in secrets {
                #expect(!traced.contains(secret), "a secret is in the output: \(secret.prefix(12))…")
            }
        }
    }

    @Test func gapsReportsExactlyTheNotificationsOfTheDaysTheDatabaseLacks() async throws {
        let workspace = try Workspace(days: 5, perDay: 7)
        try await MockAppStoreServer.with(workspace.key.mock(workspace.history.notifications, pageSize: 6)) { server in
            #expect(try workspace.fetch(server).status == 0)
            #expect(try workspace.load().status == 0)
            // Days 1 and 2 lost from the archive, and one notification of day 4.
            let history = workspace.history
            let lostOnDay4 = try #require(history.notifications(onDay: 4).first).uuid
            var lost: [String: [String]] = [
                history.dayText(1): history.notifications(onDay: 1).map(\.uuid).sorted(),
                history.dayText(2): history.notifications(onDay: 2).map(\.uuid).sorted(),
                history.dayText(4): [lostOnDay4],
            ]
            let connection = try workspace.schema.connect()
            for uuids in lost.values {
                try connection.execute(
                    "DELETE FROM notifications WHERE notification_uuid = ANY($1::uuid[])",
                    ["{" + uuids.joined(separator: ",") + "}"]
                )
            }

            let gaps = try workspace.churn(
                ["gaps", "--from", history.dayText(0), "--to", history.dayText(4)], server
            )
            #expect(gaps.status == 0, "\(gaps.stderr)")
            var reported: [String: [String]] = [:]
            var day: String?
            for line in gaps.stdout.split(separator: "\n").map(String.init) {
                if line.hasPrefix("  ") {
                    if let day { reported[day, default: []].append(line.trimmingCharacters(in: .whitespaces)) }
                } else if line.count > 10, line.dropFirst(10).hasPrefix(": Apple") {
                    day = String(line.prefix(10))
                }
            }
            #expect(reported == lost, "\(gaps.stdout)")
            #expect(gaps.stdout.contains("\(history.dayText(0)): Apple 7, stored 7, missing 0"))
            #expect(gaps.stdout.contains("\(history.dayText(4)): Apple 7, stored 6, missing 1"))
            #expect(gaps.stdout.contains("15 of 35 notification(s) missing, on 3 of 5 day(s)"))
            #expect(gaps.stdout.contains("churn fetch --from \(history.dayText(1)) --to \(history.dayText(2))"))

            // The repair it suggests fills exactly the holes.
            lost = [:]
            let repair = try workspace.churn(
                [
                    "fetch", "--out", workspace.exports.appendingPathComponent("repair").path, "--from",
                    history.dayText(1),
                    "--to", history.dayText(4),
                ], server
            )
            #expect(repair.status == 0, "\(repair.stderr)")
            let reload = try workspace.load(workspace.exports.appendingPathComponent("repair"))
            #expect(reload.stdout.contains("15 new"), "\(reload.stdout)")
            let after = try workspace.churn(["gaps", "--from", history.dayText(0), "--to", history.dayText(4)], server)
            #expect(after.stdout.contains("0 of 35 notification(s) missing"), "\(after.stdout)")
        }
    }

    @Test func nightlyFetchFetchesLoadsAndReportsInOneRunAndTheNextRunGoesOnFromThere() async throws {
        let workspace = try Workspace(days: 3)
        try await MockAppStoreServer.with(workspace.key.mock(workspace.history.notifications, pageSize: 5)) { server in
            let reports = workspace.root.appendingPathComponent("reports")
            try FileManager.default.createDirectory(at: workspace.exports, withIntermediateDirectories: true)
            let arguments = [
                "nightly", "--fetch", "--verbose", "--trust-root", workspace.trustRoot, "--reports-root", reports.path,
                workspace.exports.path,
            ]
            let first = try workspace.churn(arguments, server)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("21 notification(s)"), "\(first.stdout)")
            #expect(first.stdout.contains("21 new"), "\(first.stdout)")
            #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("latest/summary.md").path))
            #expect(try workspace.stored() == workspace.allUUIDs)
            let firstBody = try #require(server.requests.first?.body)
            #expect(firstBody["startDate"].flatMap { Int64($0) } ?? 0 < workspace.history.day(0) - 100 * 86_400_000)

            let requestsBefore = server.requests.count
            let second = try workspace.churn(arguments, server)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("0 notification(s), 0 file(s)"), "\(second.stdout)")
            #expect(second.stdout.contains("no new export files"), "\(second.stdout)")
            let secondStart = server.requests.dropFirst(requestsBefore).first?.body["startDate"].flatMap { Int64($0) }
            let firstEnd = firstBody["endDate"].flatMap { Int64($0) }
            #expect(secondStart == firstEnd.map { $0 - 3_600_000 })
        }
    }

    @Test func nightlyFetchWithRefusedCredentialsStillReportsWhatIsOnDiskAndExits77() async throws {
        let workspace = try Workspace(days: 1)
        let stranger = APIKeyFixture()
        try await MockAppStoreServer.with(stranger.mock(workspace.history.notifications)) { server in
            let result = try workspace.churn(
                [
                    "nightly", "--fetch", "--verbose", "--trust-root", workspace.trustRoot, "--reports-root",
                    workspace.root.appendingPathComponent("reports").path, "--out", workspace.exports.path,
                ],
                server
            )
            #expect(result.status == 77, "\(result.stderr)")
            #expect(result.stderr.contains("the fetch failed"))
            #expect(result.stdout.contains("nothing loaded yet") || result.stdout.contains("no new export files"))
        }
    }
}
