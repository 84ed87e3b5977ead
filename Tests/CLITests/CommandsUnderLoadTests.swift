import AppStoreNotifications
import Foundation
import PGClient
import Store
import Synchronization
import TestSupport
import Testing

/// The commands of ``CommandsAtOnceTests`` at once on a database of a simulated app (`make soak` runs it at
/// `SOAK_LOAD_SUBSCRIBERS`, default 5 000; `make test` at 300): a repair, a fetch and a `nightly --fetch --repair`
/// that loads the last two weeks, against the mock API with Apple's status of every subscription, while ten
/// `churn query` loops run from the moment the three may go until they are done. Each query answers; each command
/// that waits for another's lock (the repair's and fetch's, the nightly's, the analysis's) says what it waits for
/// (``CommandsAtOnceTests`` checks that it names the session holding it); nothing is stored twice; and the tables
/// and the nightly's report equal those of the same commands run one after another.
@Suite(.serialized) struct CommandsUnderLoadTests {
    /// The simulated subscribers: `SOAK_LOAD_SUBSCRIBERS`, else 300.
    static var subscribers: Int {
        max(100, Int(ProcessInfo.processInfo.environment["SOAK_LOAD_SUBSCRIBERS"] ?? "") ?? 300)
    }
    static let seed = 7
    static let query = ["query", "recovery-curve", "--format", "csv"]
    static let waitingForAnalysis = "waiting for another analysis to finish"

    /// One database and its directories, with the history before the last two weeks loaded and those weeks' file
    /// waiting in the exports directory.
    struct Side {
        let schema: TestDatabase.Schema
        let exports: URL
        let reports: URL
    }

    @Test func aNightlyARepairAFetchAndTenQueryLoopsAtOnce() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("under-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }

        let (lines, trustRoot) = try SoakTests.threeMonths(subscribers: Self.subscribers, seed: Self.seed, in: root)
        let days = Array(Set(lines.map(\.day))).sorted()
        try #require(days.count > 30, "the history has \(days.count) days")
        let recentDays = Array(days.suffix(14))
        let firstRecent = try #require(recentDays.first)
        let history = lines.filter { $0.day < firstRecent }
        let recent = lines.filter { $0.day >= firstRecent }

        let key = APIKeyFixture(bundleID: SoakTests.bundleID)
        let keyFile = try key.writeKeyFile(in: root)
        let api: [String: String?] = [
            "CHURN_KEY_FILE": keyFile, "CHURN_KEY_ID": key.keyID, "CHURN_ISSUER_ID": key.issuerID,
            "CHURN_BUNDLE_ID": SoakTests.bundleID, "CHURN_KEY": nil,
        ]
        let apple = try Self.apple(lines)
        let configuration = key.mock(apple.history, pageSize: 50, statuses: apple.statuses)

        func prepare(_ label: String) throws -> Side {
            let side = Side(
                schema: try TestDatabase.makeSchema(label),
                exports: root.appendingPathComponent("\(label)-exports"),
                reports: root.appendingPathComponent("\(label)-reports"))
            try FileManager.default.createDirectory(at: side.exports, withIntermediateDirectories: true)
            try SoakTests.deliver("history.jsonl", SoakTests.bytes(history), into: side.exports)
            let first = try ChurnCommand.run(
                ["nightly", "--trust-root", trustRoot, "--reports-root", side.reports.path, side.exports.path]
                    + ["--database-url", side.schema.url])
            try #require(first.status == 0, "\(first.stderr)")
            try SoakTests.deliver("recent.jsonl", SoakTests.bytes(recent), into: side.exports)
            return side
        }
        func arguments(_ side: Side, _ server: MockAppStoreServer) -> (
            repair: [String], fetch: [String], nightly: [String]
        ) {
            let api = ["--database-url", side.schema.url, "--base-url", server.baseURL, "--lock-timeout", "600"]
            return (
                ["repair", "--out", side.exports.path, "--trust-root", trustRoot, "--stale-days", "7"] + api,
                [
                    "fetch", "--out", side.exports.path, "--from", UTCDay.string(firstRecent), "--to",
                    UTCDay.string(days.last ?? 0),
                ]
                    + api,
                [
                    "nightly", "--fetch", "--repair", "--stale-days", "7", "--trust-root", trustRoot,
                    "--reports-root", side.reports.path, side.exports.path,
                ] + api
            )
        }

        // At once: the three queue behind a session that holds their locks, then go together, with ten query loops
        // from that moment until they are done.
        let concurrent = try prepare("underload")
        let started = Date()
        let outcome = try await MockAppStoreServer.with(configuration) { server in
            let commands = arguments(concurrent, server)
            func start(_ arguments: [String]) throws -> ChurnCommand.Running {
                try ChurnCommand.start(arguments, in: root, environment: api)
            }
            let gate = try concurrent.schema.connect()
            let nightlyLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.nightly, on: gate)
            let fetchLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.fetch, on: gate)
            let analysisLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.analyze, on: gate)
            #expect(try gate.tryAdvisoryLock(nightlyLock) && gate.tryAdvisoryLock(fetchLock))
            let repair = try start(commands.repair)
            #expect(
                try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: fetchLock, on: gate) == 1 })
            let fetch = try start(commands.fetch)
            #expect(
                try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: fetchLock, on: gate) == 2 })
            let nightly = try start(commands.nightly)
            #expect(
                try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: nightlyLock, on: gate) == 1 })

            let waiting = LockWaiters(url: concurrent.schema.url, key: analysisLock)
            let queries = (0..<10).map { _ in
                QueryLoop(arguments: Self.query + ["--database-url", concurrent.schema.url])
            }
            try gate.advisoryUnlock(fetchLock)
            try gate.advisoryUnlock(nightlyLock)
            let results = [repair, fetch, nightly].map { $0.wait() }
            let answers = queries.map { $0.stop() }
            return (results: results, answers: answers, analysisWaiters: waiting.stop())
        }
        let seconds = Date().timeIntervalSince(started)

        #expect(outcome.results.map(\.status) == [0, 0, 0], "\(outcome.results.map(\.stderr))")
        for result in outcome.results.prefix(2) {
            #expect(result.stderr.contains("waiting up to 600 s for another fetch or repair to finish"))
        }
        #expect(outcome.results[2].stderr.contains("waiting up to 600 s for another nightly run to finish"))
        let answers = outcome.answers.flatMap { $0 }
        #expect(outcome.answers.allSatisfy { !$0.isEmpty }, "a query loop got no answer")
        #expect(answers.allSatisfy { $0.status == 0 }, "\(answers.first { $0.status != 0 }?.stderr ?? "")")
        // A query says nothing but that it waits for another's analysis.
        let said = answers.flatMap { $0.stderr.split(separator: "\n") }.filter { !$0.contains(Self.waitingForAnalysis) }
        #expect(said.isEmpty, "\(said.prefix(3))")
        // Each command waits for the analysis lock on one session: at least as many said so as sessions were seen
        // waiting.
        let saidWaiting = (outcome.results + answers).filter { $0.stderr.contains(Self.waitingForAnalysis) }.count
        #expect(saidWaiting >= outcome.analysisWaiters.count, "\(outcome.analysisWaiters.count) sessions waited")
        let connection = try concurrent.schema.connect()
        #expect(
            try connection.execute("SELECT count(*) = count(DISTINCT notification_uuid) FROM notifications").scalar
                == "t")
        print(
            "commands under load: \(Self.subscribers) subscribers, \(lines.count) notifications (\(recent.count) in the nightly's file); the three done in \(String(format: "%.1f", seconds)) s with \(answers.count) query answers meanwhile, \(saidWaiting) commands waited for another's analysis"
        )

        // The same commands one after another, in the order the locks let them go.
        let sequential = try prepare("underloadref")
        try await MockAppStoreServer.with(configuration) { server in
            let commands = arguments(sequential, server)
            var times: [String] = []
            for command in [commands.repair, commands.fetch, commands.nightly] {
                let began = Date()
                let result = try ChurnCommand.run(command, in: root, environment: api)
                times.append("\(command[0]) \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
                #expect(result.status == 0, "\(command[0]): \(result.stderr)")
            }
            print("one after another: \(times.joined(separator: ", "))")
        }

        // The files' contents aside: a fetched page keeps its pagination token, which each mock makes afresh.
        let ours = try SoakTests.tables(concurrent.schema.url)
        for (table, rows) in try SoakTests.tables(sequential.schema.url) where table != "file contents" {
            #expect(
                ours[table] == rows,
                "\(table) differs from the commands run one after another: only these \((ours[table] ?? []).filter { !rows.contains($0) }.prefix(5)), only the reference's \(rows.filter { !(ours[table] ?? []).contains($0) }.prefix(5))"
            )
        }
        let checks =
            "SELECT original_transaction_id, reason, state, verdict, apple_status::text FROM subscription_checks ORDER BY 1, 2, 3"
        let ourChecks = try concurrent.schema.connect().execute(checks).rows
        #expect(!ourChecks.isEmpty, "the repair checked nothing")
        #expect(ourChecks == (try sequential.schema.connect().execute(checks).rows))
        let names = { (side: Side) in try FileManager.default.contentsOfDirectory(atPath: side.exports.path).sorted() }
        #expect(try names(concurrent) == names(sequential))
        try Self.expectSameReports(concurrent.reports, sequential.reports)
        let last = try ChurnCommand.run(Self.query + ["--database-url", concurrent.schema.url])
        let reference = try ChurnCommand.run(Self.query + ["--database-url", sequential.schema.url])
        #expect(last.status == 0 && last.stdout == reference.stdout)
    }

    // MARK: - Helpers

    /// What the mock serves: every notification, by date and by subscription, and Apple's status of each
    /// subscription as its last notification leaves it.
    static func apple(_ lines: [SoakTests.Line]) throws -> (
        history: [HistoryFixture.Notification], statuses: [String: MockAppStoreServer.StatusItem]
    ) {
        var history: [HistoryFixture.Notification] = []
        var last: [String: (signedDate: Int64, item: MockAppStoreServer.StatusItem)] = [:]
        for line in lines {
            let token = SoakTests.token(of: line.text)
            let payload = try Self.object(of: token)
            let data = payload["data"] as? [String: Any]
            let transactionInfo = data?["signedTransactionInfo"] as? String
            let renewalInfo = data?["signedRenewalInfo"] as? String
            let transaction = try transactionInfo.map(Self.object(of:))
            let original = transaction?["originalTransactionId"] as? String
            history.append(
                HistoryFixture.Notification(
                    uuid: line.uuid, signedDate: line.signedDate, type: line.type, signedPayload: token,
                    originalTransactionId: original))
            guard let original, let transactionInfo, let renewalInfo, line.isProduction,
                line.signedDate >= last[original]?.signedDate ?? .min
            else { continue }
            let status: Int
            switch (line.type, payload["subtype"] as? String) {
            case ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"): status = 4
            case ("DID_FAIL_TO_RENEW", _), ("GRACE_PERIOD_EXPIRED", _): status = 3
            case ("EXPIRED", _): status = 2
            case ("REFUND", _), ("REVOKE", _): status = 5
            default: status = 1
            }
            last[original] = (
                line.signedDate,
                MockAppStoreServer.StatusItem(
                    status: status, signedTransactionInfo: transactionInfo, signedRenewalInfo: renewalInfo)
            )
        }
        return (history, last.mapValues(\.item))
    }

    /// The JSON object of a JWS's payload.
    static func object(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(parts[1].utf8),
            let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { throw SoakTests.NotALine(text: String(token.prefix(80))) }
        return object
    }

    /// Both report trees hold the same files with the same bytes, `headline.json` without its database's identity.
    static func expectSameReports(_ ours: URL, _ theirs: URL) throws {
        let files = FileManager.default.subpaths(atPath: theirs.path)?.sorted() ?? []
        #expect(!files.isEmpty)
        #expect(FileManager.default.subpaths(atPath: ours.path)?.sorted() == files)
        for name in files {
            var isDirectory: ObjCBool = false
            let path = theirs.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            var mine = try Data(contentsOf: ours.appendingPathComponent(name))
            var reference = try Data(contentsOf: path)
            if name.hasSuffix("headline.json") {
                (mine, reference) = (try SoakTests.withoutDatabaseID(mine), try SoakTests.withoutDatabaseID(reference))
            }
            #expect(mine == reference, "\(name) differs from the commands run one after another")
        }
    }
}

/// The sessions seen waiting for an advisory lock, polled every 10 ms on a thread of its own until stopped.
private final class LockWaiters: Sendable {
    private let state = Mutex((stopped: false, pids: Set<String>()))
    private let done = DispatchSemaphore(value: 0)

    init(url: String, key: Int64) {
        Thread.detachNewThread { [self] in
            let connection = try? PGConnection(url: url)
            while !state.withLock({ $0.stopped }) {
                let pids = connection.flatMap { try? ConcurrentLoadTests.waitingSessions(for: key, on: $0) } ?? []
                state.withLock { $0.pids.formUnion(pids) }
                Thread.sleep(forTimeInterval: 0.01)
            }
            done.signal()
        }
    }

    func stop() -> Set<String> {
        state.withLock { $0.stopped = true }
        done.wait()
        return state.withLock { $0.pids }
    }
}
