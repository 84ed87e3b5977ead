import Foundation
import PGClient
import TestPKI
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `churn repair` and `churn nightly --fetch --repair`, the built binary against the mock API and a real database.
///
/// Four subscriptions, signed by a test authority, dated back from today so Apple's history still holds them:
/// - A: its billing issue opened 20 days ago; the recovery came 2 days later, but only Apple's history by transaction
///   id lists it. The notifications leave A open with no news (`open_without_news`); Apple says active.
/// - B: its billing issue opened 100 days ago and recovered 5 days later, again listed only by transaction id. The
///   notifications end it by inference at day 60 (`inferred_expiry`); Apple says active.
/// - C: opened 95 days ago, and expired; the expiry is listed only by transaction id. Ended by inference too, but
///   Apple says expired: the status agrees, and nothing of C is fetched.
/// - D: renewed yesterday; nothing uncertain.
/// - E: entered a grace period 3 days ago, with no grace end in its renewal info (`grace_end_unknown`); Apple says in
///   grace: the status agrees.
/// - F: open without news, like A, but Apple knows no such transaction (404): the check is `refused`, nothing fetched.
@Suite struct RepairTests {
    static let a = "1000000001"
    static let b = "1000000002"
    static let c = "1000000003"
    static let d = "1000000004"
    static let e = "1000000005"
    static let f = "1000000006"
    static let g = "1000000007"
    static let h = "1000000008"
    static let i = "1000000009"

    struct Workspace {
        let key = APIKeyFixture()
        let root: URL
        let exports: URL
        let reports: URL
        let schema: TestDatabase.Schema
        let keyFile: String
        let trustRoot: String
        let notifications: [HistoryFixture.Notification]
        let statuses: [String: MockAppStoreServer.StatusItem]

        init() throws {
            try self.init(story: Self.sixSubscriptions)
        }

        /// A workspace whose notifications and Apple's statuses are those `story` writes.
        init(story write: (inout Story) throws -> [String: MockAppStoreServer.StatusItem]) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("repair-\(UUID().uuidString)")
            exports = root.appendingPathComponent("exports")
            reports = root.appendingPathComponent("reports")
            try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
            schema = try TestDatabase.makeSchema("repair")
            keyFile = try key.writeKeyFile(in: root)
            let authority = try TestCertificateAuthority(name: "Repair")
            trustRoot = root.appendingPathComponent("root.der").path
            try Data(try authority.rootDER()).write(to: URL(fileURLWithPath: trustRoot))
            var story = Story(signer: try authority.signer())
            statuses = try write(&story)
            notifications = story.notifications
        }

        /// A to F of the suite's description.
        static func sixSubscriptions(_ story: inout Story) throws -> [String: MockAppStoreServer.StatusItem] {
            try story.add(RepairTests.a, "SUBSCRIBED", "INITIAL_BUY", day: -50, expires: -20)
            try story.add(RepairTests.a, "DID_FAIL_TO_RENEW", nil, day: -20, expires: -20)
            try story.add(RepairTests.a, "DID_RENEW", "BILLING_RECOVERY", day: -18, expires: 12, hidden: true)
            try story.add(RepairTests.b, "SUBSCRIBED", "INITIAL_BUY", day: -130, expires: -100)
            try story.add(RepairTests.b, "DID_FAIL_TO_RENEW", nil, day: -100, expires: -100)
            try story.add(RepairTests.b, "DID_RENEW", "BILLING_RECOVERY", day: -95, expires: -65, hidden: true)
            try story.add(RepairTests.c, "SUBSCRIBED", "INITIAL_BUY", day: -125, expires: -95)
            try story.add(RepairTests.c, "DID_FAIL_TO_RENEW", nil, day: -95, expires: -95)
            try story.add(RepairTests.c, "EXPIRED", "BILLING_RETRY", day: -35, expires: -95, hidden: true)
            try story.add(RepairTests.d, "SUBSCRIBED", "INITIAL_BUY", day: -30, expires: -1)
            try story.add(RepairTests.d, "DID_RENEW", nil, day: -1, expires: 29)
            try story.add(RepairTests.e, "SUBSCRIBED", "INITIAL_BUY", day: -33, expires: -3)
            try story.add(RepairTests.e, "DID_FAIL_TO_RENEW", "GRACE_PERIOD", day: -3, expires: -3)
            try story.add(RepairTests.f, "SUBSCRIBED", "INITIAL_BUY", day: -60, expires: -25)
            try story.add(RepairTests.f, "DID_FAIL_TO_RENEW", nil, day: -25, expires: -25)
            return [
                RepairTests.a: try story.status(1, RepairTests.a, expires: 12),
                RepairTests.b: try story.status(1, RepairTests.b, expires: 25),
                RepairTests.c: try story.status(2, RepairTests.c, expires: -95),
                RepairTests.e: try story.status(4, RepairTests.e, expires: -3),
            ]
        }

        var environment: [String: String?] {
            [
                "CHURN_KEY_FILE": keyFile, "CHURN_KEY_ID": key.keyID, "CHURN_ISSUER_ID": key.issuerID,
                "CHURN_BUNDLE_ID": key.bundleID, "CHURN_KEY": nil,
            ]
        }

        func mock(pageSize: Int = 5, faults: [MockAppStoreServer.Fault] = []) -> MockAppStoreServer.Configuration {
            key.mock(notifications, pageSize: pageSize, faults: faults, statuses: statuses)
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

        func nightly(_ server: MockAppStoreServer, _ extra: [String] = []) throws -> ChurnCommand.Result {
            try churn(
                [
                    "nightly", "--fetch", "--verbose", "--trust-root", trustRoot, "--reports-root", reports.path,
                    exports.path,
                ] + extra, server)
        }

        func repair(_ server: MockAppStoreServer, _ extra: [String] = [], fault: String? = nil) throws
            -> ChurnCommand.Result
        {
            try churn(
                ["repair", "--out", exports.path, "--trust-root", trustRoot, "--stale-days", "7"] + extra, server,
                fault: fault)
        }

        /// Each subscription's episode outcome as stored, and whether the `episodes` view ends it by inference.
        func outcomes() throws -> [String: String] {
            let rows = try schema.connect().execute(
                """
                SELECT original_transaction_id, outcome || CASE WHEN end_inferred THEN ' (inferred)' ELSE '' END
                FROM episodes ORDER BY 1
                """
            ).rows
            var outcomes: [String: String] = [:]
            for row in rows { outcomes[row[0] ?? ""] = row[1] ?? "" }
            return outcomes
        }

        /// Each check: subscription, reason, state, verdict, Apple's status, and whether a history file was written.
        func checks() throws -> [[String?]] {
            try schema.connect().execute(
                """
                SELECT original_transaction_id, reason, state, verdict, apple_status::text,
                       (history_file IS NOT NULL)::text
                FROM subscription_checks ORDER BY original_transaction_id, id
                """
            ).rows
        }

        func exportNames() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: exports.path).sorted()
        }

        func dataQuality() throws -> String {
            try String(
                contentsOf: reports.appendingPathComponent("latest/data_quality.csv"), encoding: .utf8)
        }
    }

    /// Signed notifications and status items of the subscriptions, dated in days from today (UTC midnight).
    struct Story {
        let signer: JWSSigner
        let today = Int64(Date().timeIntervalSince1970 * 1000) / 86_400_000 * 86_400_000
        var notifications: [HistoryFixture.Notification] = []

        func day(_ day: Int64) -> Int64 { today + day * 86_400_000 + 3_600_000 }

        /// Adds a notification; `billingPlanType` `MONTHLY` bills under a 12-month commitment.
        mutating func add(
            _ subscription: String, _ type: String, _ subtype: String?, day signedDay: Int64, expires: Int64,
            hidden: Bool = false, environment: String = "Production", billingPlanType: String? = nil
        ) throws {
            let number = notifications.count + 1
            let signedDate = day(signedDay)
            var transaction: [String: Any] = [
                "originalTransactionId": subscription, "transactionId": "\(subscription)-\(number)",
                "productId": "com.example.monthly", "purchaseDate": signedDate, "expiresDate": day(expires),
                "price": 4990, "currency": "EUR", "storefront": "DEU", "inAppOwnershipType": "PURCHASED",
                "environment": environment, "signedDate": signedDate,
            ]
            if let billingPlanType { transaction["billingPlanType"] = billingPlanType }
            let renewal: [String: Any] = [
                "originalTransactionId": subscription, "autoRenewStatus": 1, "environment": environment,
                "signedDate": signedDate,
            ]
            var payload: [String: Any] = [
                "notificationType": type, "notificationUUID": String(format: "70000000-0000-4000-8000-%012d", number),
                "signedDate": signedDate, "version": "2.0",
                "data": [
                    "environment": environment, "bundleId": "com.example",
                    "signedTransactionInfo": try signer.sign(try JSONSerialization.data(withJSONObject: transaction)),
                    "signedRenewalInfo": try signer.sign(try JSONSerialization.data(withJSONObject: renewal)),
                ],
            ]
            if let subtype { payload["subtype"] = subtype }
            notifications.append(
                HistoryFixture.Notification(
                    uuid: String(format: "70000000-0000-4000-8000-%012d", number), signedDate: signedDate, type: type,
                    signedPayload: try signer.sign(try JSONSerialization.data(withJSONObject: payload)),
                    originalTransactionId: subscription, isTransactionOnly: hidden
                ))
        }

        /// A transaction of `subscription` as Get Transaction History lists it, signed: `reason` (`PURCHASE`,
        /// `RENEWAL`), purchased on day `purchased`.
        func transaction(_ subscription: String, _ id: String, _ reason: String, purchased: Int64, expires: Int64)
            throws -> String
        {
            let transaction: [String: Any] = [
                "originalTransactionId": subscription, "transactionId": id, "bundleId": "com.example",
                "productId": "com.example.monthly", "purchaseDate": day(purchased), "expiresDate": day(expires),
                "transactionReason": reason, "type": "Auto-Renewable Subscription", "environment": "Production",
                "signedDate": day(purchased), "price": 9990, "currency": "USD",
            ]
            return try signer.sign(try JSONSerialization.data(withJSONObject: transaction))
        }

        /// Apple's status item of `subscription`: `status`, its latest transaction expiring on day `expires`.
        func status(_ status: Int, _ subscription: String, expires: Int64) throws -> MockAppStoreServer.StatusItem {
            let signedDate = Int64(Date().timeIntervalSince1970 * 1000)
            let transaction: [String: Any] = [
                "originalTransactionId": subscription, "transactionId": "\(subscription)-latest",
                "productId": "com.example.monthly", "expiresDate": day(expires), "environment": "Production",
                "signedDate": signedDate,
            ]
            let renewal: [String: Any] = [
                "originalTransactionId": subscription, "autoRenewStatus": status == 1 ? 1 : 0,
                "isInBillingRetryPeriod": false, "environment": "Production", "signedDate": signedDate,
            ]
            return MockAppStoreServer.StatusItem(
                status: status,
                signedTransactionInfo: try signer.sign(try JSONSerialization.data(withJSONObject: transaction)),
                signedRenewalInfo: try signer.sign(try JSONSerialization.data(withJSONObject: renewal))
            )
        }
    }

    /// The status requests a server saw (`GET …/subscriptions/<id>`), answered or not.
    static func statusRequests(_ requests: [MockAppStoreServer.Request]) -> [MockAppStoreServer.Request] {
        requests.filter { $0.path.hasPrefix("GET /inApps/v1/subscriptions/") }
    }

    /// The history requests by transaction id, as `<transaction>/<token or first>`.
    static func historyRequests(_ requests: [MockAppStoreServer.Request]) -> [String] {
        requests.filter { $0.status == 200 && $0.body["transactionId"] != nil }.map {
            "\($0.body["transactionId"] ?? "")/\($0.paginationToken ?? "first")"
        }
    }

    @Test func theNextNightlyRepairsWhatAppleReportsOtherwiseAndLeavesWhatAgrees() async throws {
        let workspace = try Workspace()
        try await MockAppStoreServer.with(workspace.mock()) { server in
            let first = try workspace.nightly(server)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                try workspace.outcomes() == [
                    Self.a: "open", Self.b: "expired (inferred)", Self.c: "expired (inferred)", Self.e: "open",
                    Self.f: "open",
                ])
            #expect(try !workspace.dataQuality().contains("apple_"), "no check, no line")

            let before = server.requests.count
            let second = try workspace.nightly(server, ["--repair", "--stale-days", "7"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                second.stdout.contains(
                    "checked 5 subscription(s) with Apple: 2 agrees, 2 differs, 0 not_found, 0 unverified, 1 refused"),
                "\(second.stdout)")
            #expect(second.stdout.contains("fetched the history of 2 subscription(s)"), "\(second.stdout)")
            let asked = Array(server.requests.dropFirst(before))
            #expect(Set(Self.statusRequests(asked).map(\.path)).count == 5)
            #expect(
                Set(Self.historyRequests(asked).map { String($0.prefix { $0 != "/" }) }) == [Self.a, Self.b],
                "the histories of C and E, whose status agrees, and of F, unknown to Apple, are not asked")
            // A and B are corrected from Apple's signed notifications; C, E and F stay as the notifications left them.
            #expect(
                try workspace.outcomes() == [
                    Self.a: "recovered", Self.b: "recovered", Self.c: "expired (inferred)", Self.e: "open",
                    Self.f: "open",
                ])
            #expect(
                try workspace.checks() == [
                    [Self.a, "open_without_news", "done", "differs", "1", "true"],
                    [Self.b, "inferred_expiry", "done", "differs", "1", "true"],
                    [Self.c, "inferred_expiry", "done", "agrees", "2", "false"],
                    [Self.e, "grace_end_unknown", "done", "agrees", "4", "false"],
                    [Self.f, "open_without_news", "done", "refused", nil, "false"],
                ])
            let quality = try workspace.dataQuality()
            for line in [
                "apple_status_agrees,2", "apple_status_differs,2", "apple_history_fetched,2", "apple_check_failed,1",
            ] {
                #expect(quality.contains(line), "\(line): \(quality)")
            }
            let summary = try String(
                contentsOf: workspace.reports.appendingPathComponent("latest/summary.md"), encoding: .utf8)
            #expect(summary.contains("Uncertain episodes checked against Apple's status: 5"), "\(summary)")
            #expect(try !workspace.exportNames().contains { $0.hasSuffix(".partial") })

            // Every one was checked today: the next night leaves them alone.
            let third = try workspace.nightly(server, ["--repair", "--stale-days", "7"])
            #expect(third.status == 0, "\(third.stderr)")
            #expect(third.stdout.contains("checked 0 subscription(s)"), "\(third.stdout)")
            #expect(try workspace.checks().count == 5)
        }
    }

    @Test(arguments: ["repair.status-recorded:2", "repair.page-committed:2", "repair.page-written:2"])
    func aRepairKilledMidwayResumesWithNoRequestRepeated(_ fault: String) async throws {
        let workspace = try Workspace()
        try await MockAppStoreServer.with(workspace.mock(pageSize: 1)) { server in
            let first = try workspace.nightly(server)
            #expect(first.status == 0, "\(first.stderr)")
            let before = server.requests.count

            let killed = try workspace.repair(server, ["--concurrency", "1"], fault: fault)
            #expect(killed.status == SIGKILL, "the repair must die at \(fault): \(killed.stderr)")
            let resumed = try workspace.repair(server, ["--concurrency", "1"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stdout.contains("went on with"), "\(resumed.stdout)")

            let asked = Array(server.requests.dropFirst(before))
            let statuses = Self.statusRequests(asked).map(\.path)
            #expect(statuses.count == 5 && Set(statuses).count == 5, "no status asked twice: \(statuses)")
            let histories = Self.historyRequests(asked)
            let repeated = fault.hasPrefix("repair.page-written") ? 1 : 0
            #expect(
                histories.count == Set(histories).count + repeated,
                "no history page asked twice, but the one written and not recorded: \(histories)")
            #expect(try workspace.checks().allSatisfy { $0[2] == "done" })
            #expect(try !workspace.exportNames().contains { $0.hasSuffix(".partial") })

            let loaded = try ChurnCommand.run(
                [
                    "nightly", "--database-url", workspace.schema.url, "--trust-root", workspace.trustRoot,
                    "--reports-root", workspace.reports.path, workspace.exports.path,
                ], in: workspace.root)
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(
                try workspace.outcomes() == [
                    Self.a: "recovered", Self.b: "recovered", Self.c: "expired (inferred)", Self.e: "open",
                    Self.f: "open",
                ])
        }
    }

    @Test func statusRequestsAnswered429Or5xxAreTriedAgain() async throws {
        let workspace = try Workspace()
        try await MockAppStoreServer.with(workspace.mock()) { server in
            let first = try workspace.nightly(server)
            #expect(first.status == 0, "\(first.stderr)")
            let next = server.requests.count + 1
            server.setFaults([
                .tooManyRequests(request: next, retryAfter: .after(.seconds(1))), .serverError(request: next + 1),
            ])
            let repaired = try workspace.repair(server, ["--concurrency", "1"])
            #expect(repaired.status == 0, "\(repaired.stderr)")
            let statuses = Self.statusRequests(Array(server.requests.dropFirst(next - 1)))
            // Oldest episode first: B (429, 500, then answered), C, F (unknown to Apple), A, E.
            #expect(statuses.map(\.status) == [429, 500, 200, 200, 404, 200, 200], "\(statuses.map(\.status))")
            #expect(try workspace.checks().map { $0[3] } == ["differs", "differs", "agrees", "agrees", "refused"])
        }
    }

    @Test func aSubscriptionWhoseHistoryAppleCannotFindIsRecordedWithApplesCodeAndTheRepairGoesOn() async throws {
        let workspace = try Workspace()
        var configuration = workspace.mock()
        // Apple: "In rare cases, you might get this error for transaction IDs that previously returned data".
        configuration.historyNotFound = [Self.a]
        try await MockAppStoreServer.with(configuration) { server in
            #expect(try workspace.nightly(server).status == 0)
            let next = server.requests.count + 1
            // Oldest episode first: the statuses of B, C, F, A, E, then the histories of B and A. C's status and B's
            // first history page are answered AccountNotFoundRetryableError (4040002) once.
            server.setFaults([.retryableError(request: next + 1), .retryableError(request: next + 6)])
            let repaired = try workspace.repair(server, ["--concurrency", "1"])
            #expect(repaired.status == 0, "\(repaired.stderr)")
            #expect(repaired.stdout.contains("fetched the history of 1 subscription(s)"), "\(repaired.stdout)")
            #expect(repaired.stdout.contains("Apple refused the history of 1 subscription(s)"), "\(repaired.stdout)")
            let asked = Array(server.requests.dropFirst(next - 1))
            #expect(
                asked.map {
                    "\($0.status) \($0.body["transactionId"] ?? $0.path.split(separator: "/").last.map(String.init) ?? "")"
                }
                    == [
                        "200 \(Self.b)", "404 \(Self.c)", "200 \(Self.c)", "404 \(Self.f)", "200 \(Self.a)",
                        "200 \(Self.e)", "404 \(Self.b)", "200 \(Self.b)", "404 \(Self.a)",
                    ])
            #expect(
                try workspace.checks() == [
                    [Self.a, "open_without_news", "failed", "differs", "1", "false"],
                    [Self.b, "inferred_expiry", "done", "differs", "1", "true"],
                    [Self.c, "inferred_expiry", "done", "agrees", "2", "false"],
                    [Self.e, "grace_end_unknown", "done", "agrees", "4", "false"],
                    [Self.f, "open_without_news", "done", "refused", nil, "false"],
                ])
            let codes = try workspace.schema.connect().execute(
                """
                SELECT original_transaction_id, apple_error_code::text, error LIKE '%error 4040010%'
                FROM subscription_checks WHERE apple_error_code IS NOT NULL ORDER BY 1
                """
            ).rows
            #expect(codes == [[Self.a, "4040010", "t"], [Self.f, "4040010", "t"]])

            // The next run does not stop at A: nothing is left to check, and it succeeds.
            let again = try workspace.repair(server, ["--concurrency", "1"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("checked 0 subscription(s)"), "\(again.stdout)")
            // The rest is repaired: B from Apple's signed notifications; A stays as the notifications left it.
            let loaded = try workspace.nightly(server)
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(
                try workspace.outcomes() == [
                    Self.a: "open", Self.b: "recovered", Self.c: "expired (inferred)", Self.e: "open", Self.f: "open",
                ])
            // A, whose history Apple refused, is a failed check (with F, refused), not one that differs.
            let quality = try workspace.dataQuality()
            for line in [
                "apple_status_agrees,2", "apple_status_differs,1", "apple_history_fetched,1", "apple_check_failed,2",
            ] {
                #expect(quality.contains(line), "\(line): \(quality)")
            }
        }
    }

    /// The choice is the episode rules' own, as of the report's time: the latest `signedDate` loaded over all
    /// environments. G bills under a commitment (W = 90) and its renewal failed 70 days ago: open, not an inferred
    /// expiry, so Apple's "billing retry" agrees. H (standard) failed 61 days before yesterday's Sandbox notification,
    /// 60 days before Production's latest (D, two days ago): mature as of the report's time only.
    @Test func theChoiceFollowsTheEpisodeRulesAsOfTheReportsTime() async throws {
        let sandbox = "2000000001"
        let workspace = try Workspace { story in
            try story.add(Self.d, "SUBSCRIBED", "INITIAL_BUY", day: -31, expires: -2)
            try story.add(Self.d, "DID_RENEW", nil, day: -2, expires: 28)
            try story.add(Self.g, "SUBSCRIBED", "INITIAL_BUY", day: -100, expires: -70, billingPlanType: "MONTHLY")
            try story.add(Self.g, "DID_FAIL_TO_RENEW", nil, day: -70, expires: -70, billingPlanType: "MONTHLY")
            try story.add(Self.h, "SUBSCRIBED", "INITIAL_BUY", day: -92, expires: -62)
            try story.add(Self.h, "DID_FAIL_TO_RENEW", nil, day: -62, expires: -62)
            try story.add(sandbox, "SUBSCRIBED", "INITIAL_BUY", day: -1, expires: 29, environment: "Sandbox")
            return [
                Self.g: try story.status(3, Self.g, expires: -70),
                Self.h: try story.status(2, Self.h, expires: -62),
            ]
        }
        // Apple's Production history holds the Production notifications; the Sandbox one is loaded from a file.
        var configuration = workspace.mock()
        configuration.notifications.removeAll { $0.originalTransactionId == sandbox }
        let sandboxFile = workspace.root.appendingPathComponent("sandbox.jsonl")
        let line = try workspace.notifications.filter { $0.originalTransactionId == sandbox }.map {
            String(
                decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": $0.signedPayload]), as: UTF8.self
            )
        }
        try (line.joined(separator: "\n") + "\n").write(to: sandboxFile, atomically: true, encoding: .utf8)
        try await MockAppStoreServer.with(configuration) { server in
            #expect(try workspace.nightly(server).status == 0)
            #expect(try workspace.outcomes() == [Self.g: "open", Self.h: "open"])
            let loaded = try ChurnCommand.run(
                [
                    "load", "--database-url", workspace.schema.url, "--trust-root", workspace.trustRoot,
                    sandboxFile.path,
                ],
                in: workspace.root)
            #expect(loaded.status == 0, "\(loaded.stderr)")
            let out = workspace.root.appendingPathComponent("report")
            let report = try ChurnCommand.run(
                ["report", "--database-url", workspace.schema.url, "--out", out.path], in: workspace.root)
            #expect(report.status == 0, "\(report.stderr)")
            let quality = try String(contentsOf: out.appendingPathComponent("data_quality.csv"), encoding: .utf8)
            #expect(quality.contains("inferred_expiry,1"), "the report ends H by inference, not G: \(quality)")

            let repaired = try workspace.repair(server, ["--concurrency", "1"])
            #expect(repaired.status == 0, "\(repaired.stderr)")
            #expect(
                repaired.stdout.contains(
                    "checked 2 subscription(s) with Apple: 2 agrees, 0 differs, 0 not_found, 0 unverified, 0 refused"),
                "\(repaired.stdout)")
            #expect(
                try workspace.checks() == [
                    [Self.g, "open_without_news", "done", "agrees", "3", "false"],
                    [Self.h, "inferred_expiry", "done", "agrees", "2", "false"],
                ])
            #expect(Self.historyRequests(server.requests).isEmpty)
        }
    }

    /// I's renewal failed 200 days ago and recovered 5 days later, both beyond the 180 days of notification history
    /// Apple keeps: the episode ends by inference, Apple says active. The repair reads I's signed transactions (Get
    /// Transaction History, one per answer), verifies each, and records the renewal of day -195 as the proof. The next
    /// nightly loads nothing new but rebuilds I with the proof: the episode the notifications left to inference ends
    /// recovered by retry at that renewal's purchase, with its price, naming the transaction; the report counts the
    /// proof (`apple_recovery_proven`).
    @Test func anEpisodeOlderThanTheNotificationHistoryIsProvenRecoveredByAVerifiedRenewal() async throws {
        var transactions: [String] = []
        let workspace = try Workspace { story in
            try story.add(Self.d, "SUBSCRIBED", "INITIAL_BUY", day: -30, expires: -1)
            try story.add(Self.d, "DID_RENEW", nil, day: -1, expires: 29)
            try story.add(Self.i, "SUBSCRIBED", "INITIAL_BUY", day: -230, expires: -200)
            try story.add(Self.i, "DID_FAIL_TO_RENEW", nil, day: -200, expires: -200)
            // In Apple's order, by the date each was last modified: not the order of purchase.
            transactions = [
                try story.transaction(Self.i, "\(Self.i)-t4", "RENEWAL", purchased: -100, expires: -70),
                try story.transaction(Self.i, "\(Self.i)-t1", "PURCHASE", purchased: -230, expires: -200),
                try story.transaction(Self.i, "\(Self.i)-t3", "RENEWAL", purchased: -165, expires: -135),
                try story.transaction(Self.i, "\(Self.i)-t2", "RENEWAL", purchased: -195, expires: -165),
            ]
            return [Self.i: try story.status(1, Self.i, expires: 25)]
        }
        var configuration = workspace.mock()
        configuration.transactions = [Self.i: transactions]
        configuration.transactionPageSize = 1
        // Older than Apple's notification history: loaded from a file, as an old export.
        let old = workspace.root.appendingPathComponent("old.jsonl")
        let lines = try workspace.notifications.filter { $0.originalTransactionId == Self.i }.map {
            String(
                decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": $0.signedPayload]), as: UTF8.self
            )
        }
        try (lines.joined(separator: "\n") + "\n").write(to: old, atomically: true, encoding: .utf8)
        try await MockAppStoreServer.with(configuration) { server in
            let loaded = try ChurnCommand.run(
                ["load", "--database-url", workspace.schema.url, "--trust-root", workspace.trustRoot, old.path],
                in: workspace.root)
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(try workspace.nightly(server).status == 0)
            #expect(try workspace.outcomes() == [Self.i: "expired (inferred)"])

            let repaired = try workspace.repair(server, ["--concurrency", "1"])
            #expect(repaired.status == 0, "\(repaired.stderr)")
            #expect(
                repaired.stdout.contains(
                    "read the signed transactions of 1 subscription(s) older than Apple's notification history: "
                        + "1 recovery(ies) proven by a verified renewal"), "\(repaired.stdout)")
            // Only the purchases of the retry window are asked for (t3, t2), one per answer, every answer read.
            let asked = server.requests.filter { $0.path.hasPrefix("GET /inApps/v2/history/") }
            #expect(asked.map(\.paginationToken) == [nil, "revision-1"], "one transaction per answer")
            #expect(Self.historyRequests(server.requests).isEmpty, "no notification history by transaction id")
            #expect(try workspace.checks() == [[Self.i, "inferred_expiry", "done", "differs", "1", "false"]])
            let proof = try workspace.schema.connect().execute(
                """
                SELECT history_kind, transactions::text, proof_transaction_id,
                       proof_signed_transaction = $1, proof_purchase_date = retry_window_end - interval '55 days'
                FROM subscription_checks
                """, [transactions[3]]
            ).rows
            #expect(proof == [["transactions", "2", "\(Self.i)-t2", "t", "t"]])

            #expect(try workspace.nightly(server).status == 0)
            let quality = try workspace.dataQuality()
            #expect(quality.contains("apple_recovery_proven,1"), "\(quality)")
            #expect(try workspace.outcomes() == [Self.i: "recovered"], "the proven renewal ends the episode")
            let episode = try workspace.schema.connect().execute(
                """
                SELECT recovered_by, proven_recovery_transaction_id, recovery_price::text,
                       b.end_at = c.proof_purchase_date, closing_notification_uuid IS NULL, c.proof_analyzed
                FROM billing_episodes b JOIN subscription_checks c USING (original_transaction_id)
                """
            ).rows
            #expect(episode == [["retry", "\(Self.i)-t2", "9990", "t", "t", "t"]])
            // A second nightly with nothing new rebuilds nothing.
            let again = try workspace.nightly(server)
            #expect(again.status == 0)
            #expect(try workspace.outcomes() == [Self.i: "recovered"])
        }
    }

    @Test func anAnswerSignedByAnotherAuthorityIsNotTrustedAndFetchesNothing() async throws {
        let workspace = try Workspace()
        let stranger = Story(signer: try TestCertificateAuthority(name: "Stranger").signer())
        var configuration = workspace.mock()
        configuration.statuses[Self.a] = try stranger.status(1, Self.a, expires: 12)
        try await MockAppStoreServer.with(configuration) { server in
            #expect(try workspace.nightly(server).status == 0)
            let repaired = try workspace.repair(server)
            #expect(repaired.status == 0, "\(repaired.stderr)")
            #expect(try workspace.checks().first?[3] == "unverified")
            #expect(!Self.historyRequests(server.requests).contains { $0.hasPrefix(Self.a) })
        }
    }
}
