import AppStoreNotifications
import Foundation
import PGClient
import Store
import TestPKI
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A kill at any point of a nightly run (SIGKILL: no chance to clean up) loses nothing and doubles nothing: after
/// one more run the tables equal those of a clean single run.
///
/// Every kill is shown to have landed in the middle of a run: the process died of SIGKILL, and the database holds
/// exactly what the run had committed by then, with its load run still `running` when it was loading. A load commits
/// batch by batch: the batches a killed run committed stay (under a `source_files` row without a SHA-256, since the
/// file never completed) and the next run counts them as the file's own, not as duplicates, so the notifications, the
/// files stored whole and their counts, the quarantine and the episodes still equal those of a clean run.
@Suite(.serialized) struct CrashTests {
    /// Four export files of signed notifications (several subscriptions' billing stories) plus a few bad lines.
    ///
    /// Each file holds 100 subscriptions, each with a `DID_RENEW` and a failure notice, then a recovery
    /// (subscription number ≡ 0 mod 4), an `EXPIRED`/`BILLING_RETRY` on day 60 of retry (≡ 1), a cancel (≡ 2) or
    /// nothing (≡ 3): 275 notifications, one line that is not a notification, and in files 2–4 a resend of a
    /// notification of the file before.
    final class Exports: Sendable {
        let directory: URL
        let trustRoot: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
            let exports = directory.appendingPathComponent("exports")
            try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
            let authority = try TestCertificateAuthority(name: "Crash")
            let signer = try authority.signer()
            trustRoot = directory.appendingPathComponent("root.der")
            try Data(try authority.rootDER()).write(to: trustRoot)
            var counter = 0
            func line(_ subscription: Int, _ type: String, _ subtype: String?, day: Int64, expires: Int64? = nil) throws
                -> String
            {
                counter += 1
                let base: Int64 = 1_700_000_000_000
                let signedDate = base + day * 86_400_000 + Int64(subscription)
                var transaction: [String: Any] = [
                    "originalTransactionId": "sub-\(subscription)", "transactionId": "tx-\(counter)",
                    "productId": subscription % 2 == 0 ? "com.example.monthly" : "com.example.annual",
                    "purchaseDate": signedDate, "price": 4990, "currency": "EUR", "storefront": "DEU",
                    "inAppOwnershipType": "PURCHASED", "environment": "Production",
                ]
                if let expires { transaction["expiresDate"] = base + expires * 86_400_000 }
                var payload: [String: Any] = [
                    "notificationType": type,
                    "notificationUUID": String(format: "10000000-0000-4000-8000-%012d", counter),
                    "signedDate": signedDate,
                    "data": [
                        "environment": "Production", "bundleId": "com.example",
                        "signedTransactionInfo": try signer.sign(
                            try JSONSerialization.data(withJSONObject: transaction)),
                        "signedRenewalInfo": try signer.sign(
                            try JSONSerialization.data(withJSONObject: ["originalTransactionId": "sub-\(subscription)"])
                        ),
                    ],
                ]
                if let subtype { payload["subtype"] = subtype }
                return "{\"signedPayload\":\"\(try signer.sign(try JSONSerialization.data(withJSONObject: payload)))\"}"
            }
            var previous: [String] = []
            for file in 0..<4 {
                var lines: [String] = []
                for subscription in (file * 100)..<(file * 100 + 100) {
                    let day = Int64(subscription % 50)
                    lines.append(try line(subscription, "DID_RENEW", nil, day: day))
                    lines.append(
                        try line(
                            subscription, "DID_FAIL_TO_RENEW", subscription % 3 == 0 ? "GRACE_PERIOD" : nil,
                            day: day + 30, expires: day + 30))
                    switch subscription % 4 {
                    case 0: lines.append(try line(subscription, "DID_RENEW", "BILLING_RECOVERY", day: day + 32))
                    case 1: lines.append(try line(subscription, "EXPIRED", "BILLING_RETRY", day: day + 90))
                    case 2:
                        lines.append(
                            try line(subscription, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day: day + 40))
                    default: break
                    }
                }
                lines.insert("this line is not a notification", at: 50)
                // The first notification of the file before, resent.
                if let resent = previous.first { lines.append(resent) }
                previous = lines
                try Data((lines.joined(separator: "\n") + "\n").utf8)
                    .write(to: exports.appendingPathComponent(String(format: "export-%02d.jsonl", file)))
            }
        }

        var exports: URL { directory.appendingPathComponent("exports") }
    }

    static let exports = Result { try Exports() }

    /// Notifications each file adds.
    static let notificationsPerFile = 275

    func nightly(_ schema: TestDatabase.Schema, fault: String? = nil) throws -> ChurnCommand.Result {
        try ChurnCommand.run(try Self.nightlyArguments(schema), environment: ["CHURN_FAULT": fault])
    }

    static func nightlyArguments(_ schema: TestDatabase.Schema) throws -> [String] {
        let exports = try exports.get()
        return [
            "nightly", "--database-url", schema.url, "--trust-root", exports.trustRoot.path, "--max-rejects", "100",
            "--reports-root", try reportsRoot(schema).path, "--lock-timeout", "30", exports.exports.path,
        ]
    }

    static func reportsRoot(_ schema: TestDatabase.Schema) throws -> URL {
        try exports.get().directory.appendingPathComponent("reports-\(schema.name)")
    }

    /// Whether a run got as far as pointing `latest` at its report.
    func hasWrittenReport(_ schema: TestDatabase.Schema) throws -> Bool {
        let link = try Self.reportsRoot(schema).appendingPathComponent("latest").path
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil
    }

    /// Everything a run leaves that must not depend on crashes along the way.
    func snapshot(_ schema: TestDatabase.Schema) throws -> [String: [[String?]]] {
        let connection = try schema.connect()
        let queries = [
            "notifications": """
            SELECT notification_uuid::text, notification_type, subtype, signed_date::text, original_transaction_id,
                   md5(payload::text), verified::text, source_line::text
            FROM notifications ORDER BY notification_uuid
            """,
            "quarantine": "SELECT file, line::text, reason FROM quarantine ORDER BY file, line",
            // Each further copy once, by its signed date and line, whatever run recorded it.
            "copies": "SELECT notification_uuid::text, signed_date::text, source_line::text FROM notification_copies "
                + "ORDER BY 1, 2, 3",
            // The files stored whole; a killed attempt's row, without a SHA-256, stays beside them.
            "source_files":
                "SELECT path, sha256, records::text, loaded::text, duplicates::text, rejected::text FROM source_files "
                + "WHERE sha256 <> '' ORDER BY path",
            "episodes": "SELECT * FROM billing_episodes ORDER BY environment, original_transaction_id, sequence",
            "analysis": "SELECT * FROM subscription_analysis ORDER BY 1, 2",
            "renewals": "SELECT * FROM subscription_renewals ORDER BY 1, 2, 3",
        ]
        var result: [String: [[String?]]] = [:]
        for (name, sql) in queries { result[name] = try connection.execute(sql).rows }
        return result
    }

    /// How far the runs so far got: what is committed (files stored whole, notifications, quarantined inputs), and
    /// the statuses of the load runs in order.
    struct Progress: Equatable, CustomStringConvertible {
        var files = 0
        var notifications = 0
        var quarantined = 0
        var runs: [String] = []
        var analyzedFiles = 0
        var episodes = 0

        var description: String {
            "\(files) files, \(notifications) notifications, \(quarantined) quarantined, load runs \(runs), "
                + "\(analyzedFiles) files analysed, \(episodes) episodes"
        }
    }

    /// What the schema holds; a table the migrations have not made yet counts as empty.
    func progress(_ schema: TestDatabase.Schema) throws -> Progress {
        let connection = try schema.connect()
        func count(_ table: String, where condition: String = "true") throws -> Int {
            guard try connection.execute("SELECT to_regclass($1) IS NOT NULL", [table]).scalar == "t" else { return 0 }
            return Int(try connection.execute("SELECT count(*) FROM \(table) WHERE \(condition)").scalar ?? "") ?? -1
        }
        var progress = Progress(
            files: try count("source_files", where: "sha256 <> ''"), notifications: try count("notifications"),
            quarantined: try count("quarantine"), analyzedFiles: try count("analyzed_files"),
            episodes: try count("billing_episodes")
        )
        if try count("load_runs") > 0 {
            progress.runs = try connection.execute("SELECT status FROM load_runs ORDER BY id").rows.compactMap { $0[0] }
        }
        return progress
    }

    static let reference = Result { () throws -> [String: [[String?]]] in
        let schema = try TestDatabase.makeSchema("crashref")
        let run = try CrashTests().nightly(schema)
        guard run.status == 0 else { throw TestDatabaseError(message: "the clean run failed: \(run.stderr)") }
        return try CrashTests().snapshot(schema)
    }

    @Test func aCleanRunStoresWhatTheFilesHold() throws {
        let reference = try Self.reference.get()
        #expect(reference["notifications"]?.count == 4 * Self.notificationsPerFile)
        // Records, stored rows, duplicates and rejections per file: 275 notifications and a bad line, and a resend
        // from the second file on.
        let records = reference["source_files"]?.map { Array($0[2...]) }
        #expect(
            records == [
                ["276", "275", "0", "1"], ["277", "275", "1", "1"], ["277", "275", "1", "1"], ["277", "275", "1", "1"],
            ]
        )
        #expect(reference["quarantine"]?.map { [$0[1], $0[2]] } == Array(repeating: ["51", "not_json"], count: 4))
        #expect(reference["copies"]?.count == 3)
        var outcomes: [String: Int] = [:]
        for row in try #require(reference["episodes"]) {
            outcomes[row[9] ?? "", default: 0] += 1
        }
        #expect(outcomes == ["recovered": 100, "expired": 100, "cancelled": 100, "open": 100])
        // Every DID_RENEW but the recoveries is a renewal, once per subscription.
        #expect(reference["renewals"]?.reduce(0) { $0 + (Int($1[3] ?? "") ?? 0) } == 400)
    }

    /// Where each fault point kills the first run: the files stored whole before it, the files whose notifications
    /// are committed (whole or not), the load runs' statuses, and the files analysed.
    static let interruptions: [String: (files: Int, filesOfRows: Int, runs: [String], analyzedFiles: Int)] = [
        // Each file is one batch: the second batch is the second file's.
        "load.batch-copied:1": (0, 0, ["running"], 0),
        "load.batch-copied:2": (1, 1, ["running"], 0),
        "load.batch-committed:1": (0, 1, ["running"], 0),
        "load.file-merged:1": (0, 1, ["running"], 0),
        "load.file-committed:1": (1, 1, ["running"], 0),
        "load.file-merged:3": (2, 3, ["running"], 0),
        "load.file-committed:4": (4, 4, ["running"], 0),
        "analyze.episodes-copied:1": (4, 4, ["succeeded"], 0),
        "nightly.before-report:1": (4, 4, ["succeeded"], 4),
    ]

    @Test(arguments: [
        "load.batch-copied:1", "load.batch-copied:2", "load.batch-committed:1", "load.file-merged:1",
        "load.file-committed:1", "load.file-merged:3", "load.file-committed:4", "analyze.episodes-copied:1",
        "nightly.before-report:1",
    ])
    func aKillAtThisPointThenOneMoreRunEqualsACleanRun(_ fault: String) throws {
        let reference = try Self.reference.get()
        let interruption = try #require(Self.interruptions[fault])
        let schema = try TestDatabase.makeSchema("crash")
        let killed = try nightly(schema, fault: fault)
        #expect(killed.signal == SIGKILL, "the run must die at \(fault): status \(killed.status), \(killed.stderr)")

        // The run died where the fault point is: what came before it is committed, nothing after it.
        let expected = Progress(
            files: interruption.files, notifications: interruption.filesOfRows * Self.notificationsPerFile,
            quarantined: interruption.files, runs: interruption.runs, analyzedFiles: interruption.analyzedFiles,
            episodes: interruption.analyzedFiles == 0 ? 0 : 400
        )
        #expect(try progress(schema) == expected, "after a kill at \(fault)")
        #expect(try !hasWrittenReport(schema), "a run killed at \(fault) wrote its report")

        let again = try nightly(schema)
        #expect(again.status == 0 && again.signal == nil, "\(again.stderr)")
        #expect(try hasWrittenReport(schema))
        let after = try snapshot(schema)
        for (table, rows) in reference {
            #expect(after[table] == rows, "\(table) differs after a kill at \(fault)")
        }
        // The killed load run is marked interrupted; the second run loads what was left, if anything.
        let runs =
            interruption.runs.map { $0 == "running" ? "interrupted" : $0 }
            + (interruption.files < 4 ? ["succeeded"] : [])
        #expect(try progress(schema).runs == runs, "load runs after a kill at \(fault)")
    }

    @Test func killsAtRandomMomentsNeverCorruptTheHistory() throws {
        let reference = try Self.reference.get()
        // A killed client's server session notices within 0.1 s even while it waits for a lock, so it does not
        // hold the nightly lock against the next run.
        let schema = try TestDatabase.makeSchema("crashtime", settings: ["client_connection_check_interval": "100"])
        // No run can finish while this session holds the analysis lock: every kill lands in a run, whenever it
        // comes (starting, loading, or waiting to analyse). Kills in the analysis and before the report are the
        // fault points' part.
        let analysisLock = try schema.connect()
        let key = try AdvisoryLockKey.scoped(AdvisoryLockKey.analyze, on: analysisLock)
        try analysisLock.execute("SELECT pg_advisory_lock($1::bigint)", [String(key)])
        // Kill a run at growing delays, several times over, then let one finish.
        for delay in [0.05, 0.3, 0.6, 1.0, 1.5] {
            let before = try progress(schema)
            let process = Process()
            process.executableURL = ChurnCommand.executable
            process.arguments = try Self.nightlyArguments(schema)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                "the run killed after \(delay) s ended by itself: status \(process.terminationStatus)"
            )
            let after = try progress(schema)
            #expect(after.analyzedFiles == 0 && after.episodes == 0, "after \(delay) s: \(after)")
            #expect(try !hasWrittenReport(schema), "after \(delay) s")
            // The kill cut a load run short, or came before it began or after it loaded every file.
            let started = after.runs.dropFirst(before.runs.count)
            #expect(started.count <= 1, "after \(delay) s: \(after)")
            if let run = started.first {
                #expect(run == "running" || (run == "succeeded" && after.files == 4), "after \(delay) s: \(after)")
            }
        }
        try analysisLock.execute("SELECT pg_advisory_unlock($1::bigint)", [String(key)])

        let final = try nightly(schema)
        #expect(final.status == 0 && final.signal == nil, "\(final.stderr)")
        let after = try snapshot(schema)
        for (table, rows) in reference {
            #expect(after[table] == rows, "\(table) differs after random kills")
        }
        let runs = try progress(schema).runs
        #expect(runs.allSatisfy { $0 == "interrupted" || $0 == "succeeded" }, "\(runs)")
    }
}
