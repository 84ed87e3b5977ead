import Foundation
import PGClient
import Store
import TestSupport
import Testing

/// A nightly run, a repair, a fetch and ten queries at once on one database, against the mock API: the three that
/// share locks wait in turn and each says, before it waits, what for and which session holds it; the queries answer
/// meanwhile; nothing is stored twice; and the data ends as the same commands leave it run one after another.
@Suite struct CommandsAtOnceTests {
    typealias Workspace = RepairTests.Workspace

    static let query = ["query", "recovery-curve", "--format", "csv"]

    /// The data the commands leave: each notification, each episode's outcome, each check.
    static func state(of workspace: Workspace) throws -> [String] {
        let connection = try workspace.schema.connect()
        let notifications = try connection.execute(
            "SELECT notification_uuid::text FROM notifications ORDER BY 1"
        ).rows.map { $0[0] ?? "" }
        let outcomes = try workspace.outcomes().sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let checks = try workspace.checks().map { $0.map { $0 ?? "-" }.joined(separator: " ") }
        return notifications + outcomes + checks
    }

    @Test func aNightlyARepairAFetchAndTenQueriesAtOnce() async throws {
        let workspace = try Workspace()
        let concurrent: [String] = try await MockAppStoreServer.with(workspace.mock()) { server in
            #expect(try workspace.nightly(server).status == 0)
            let database = ["--database-url", workspace.schema.url]
            let api = database + ["--base-url", server.baseURL]
            func start(_ arguments: [String]) throws -> ChurnCommand.Running {
                try ChurnCommand.start(arguments, in: workspace.root, environment: workspace.environment)
            }
            let before = try ChurnCommand.run(Self.query + database, in: workspace.root)
            #expect(before.status == 0, "\(before.stderr)")

            // A session holds both locks, so that each command starts, and queues, before any can go on.
            let gate = try workspace.schema.connect()
            let nightlyLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.nightly, on: gate)
            let fetchLock = try AdvisoryLockKey.scoped(AdvisoryLockKey.fetch, on: gate)
            #expect(try gate.tryAdvisoryLock(nightlyLock) && gate.tryAdvisoryLock(fetchLock))
            let pid = try #require(try gate.execute("SELECT pg_backend_pid()").scalar)
            let wait = ["--lock-timeout", "120"]
            let repair = try start(
                ["repair", "--out", workspace.exports.path, "--trust-root", workspace.trustRoot, "--stale-days", "7"]
                    + wait + api)
            #expect(
                try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: fetchLock, on: gate) == 1 })
            let fetch = try start(["fetch", "--out", workspace.exports.path] + wait + api)
            #expect(
                try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: fetchLock, on: gate) == 2 })
            let nightly = try start(
                [
                    "nightly", "--fetch", "--repair", "--stale-days", "7", "--trust-root", workspace.trustRoot,
                    "--reports-root", workspace.reports.path, workspace.exports.path,
                ] + wait + api)
            #expect(
                try ConcurrentLoadTests.waitUntil { try ConcurrentLoadTests.waiters(for: nightlyLock, on: gate) == 1 })

            // Ten queries while the three wait: each answers, as the data stands.
            let queries = try (0..<10).map { _ in try start(Self.query + database) }
            let answers = queries.map { $0.wait() }
            #expect(answers.map(\.status) == Array(repeating: 0, count: 10), "\(answers.map(\.stderr))")
            #expect(answers.allSatisfy { $0.stdout == before.stdout })

            try gate.advisoryUnlock(fetchLock)
            try gate.advisoryUnlock(nightlyLock)
            let results = [repair, fetch, nightly].map { $0.wait() }
            #expect(results.map(\.status) == [0, 0, 0], "\(results.map(\.stderr))")
            let holder = "PostgreSQL session \(pid) (churn)"
            for result in results.prefix(2) {
                #expect(result.stderr.contains("waiting up to 120 s for another fetch or repair to finish"))
                #expect(result.stderr.contains(holder), "\(result.stderr)")
            }
            #expect(results[2].stderr.contains("waiting up to 120 s for another nightly run to finish"))
            #expect(results[2].stderr.contains(holder), "\(results[2].stderr)")

            let connection = try workspace.schema.connect()
            #expect(
                try connection.execute("SELECT count(*) = count(DISTINCT notification_uuid) FROM notifications").scalar
                    == "t")
            return try Self.state(of: workspace)
        }

        // The same commands one after another, in the order the locks let them go.
        let reference = try Workspace()
        let sequential: [String] = try await MockAppStoreServer.with(reference.mock()) { server in
            #expect(try reference.nightly(server).status == 0)
            #expect(try reference.repair(server, ["--lock-timeout", "120"]).status == 0)
            #expect(try reference.churn(["fetch", "--out", reference.exports.path], server).status == 0)
            #expect(try reference.nightly(server, ["--repair", "--stale-days", "7"]).status == 0)
            return try Self.state(of: reference)
        }
        #expect(concurrent == sequential)
        // The repair ran: Apple's answers corrected what the notifications left uncertain.
        #expect(concurrent.contains { $0.contains(" differs ") }, "\(concurrent)")
    }
}
