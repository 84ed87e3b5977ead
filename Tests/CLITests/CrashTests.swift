import AppStoreNotifications
import Foundation
import PGClient
import Store
import Testing
import TestPKI
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A kill at any point of a nightly run (SIGKILL: no chance to clean up) loses nothing and doubles nothing: after
/// one more run the tables equal those of a clean single run.
@Suite(.serialized) struct CrashTests {
    /// Four export files of signed notifications (several subscriptions' billing stories) plus a few bad lines.
    final class Exports: @unchecked Sendable {
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
            func line(_ subscription: Int, _ type: String, _ subtype: String?, day: Int64, expires: Int64? = nil) throws -> String {
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
                    "notificationType": type, "notificationUUID": String(format: "10000000-0000-4000-8000-%012d", counter),
                    "signedDate": signedDate,
                    "data": [
                        "environment": "Production", "bundleId": "com.example",
                        "signedTransactionInfo": try signer.sign(try JSONSerialization.data(withJSONObject: transaction)),
                        "signedRenewalInfo": try signer.sign(
                            try JSONSerialization.data(withJSONObject: ["originalTransactionId": "sub-\(subscription)"])
                        ),
                    ],
                ]
                if let subtype { payload["subtype"] = subtype }
                return "{\"signedPayload\":\"\(try signer.sign(try JSONSerialization.data(withJSONObject: payload)))\"}"
            }
            for file in 0..<4 {
                var lines: [String] = []
                for subscription in (file * 100)..<(file * 100 + 100) {
                    let day = Int64(subscription % 50)
                    lines.append(try line(subscription, "DID_RENEW", nil, day: day))
                    lines.append(try line(subscription, "DID_FAIL_TO_RENEW", subscription % 3 == 0 ? "GRACE_PERIOD" : nil, day: day + 30, expires: day + 30))
                    switch subscription % 4 {
                    case 0: lines.append(try line(subscription, "DID_RENEW", "BILLING_RECOVERY", day: day + 32))
                    case 1: lines.append(try line(subscription, "EXPIRED", "BILLING_RETRY", day: day + 90))
                    case 2: lines.append(try line(subscription, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", day: day + 40))
                    default: break
                    }
                }
                lines.insert("this line is not a notification", at: 50)
                // The same notification resent in the next file.
                if file > 0 { lines.append(try line(file * 100, "DID_RENEW", nil, day: 0)) }
                try Data((lines.joined(separator: "\n") + "\n").utf8)
                    .write(to: exports.appendingPathComponent(String(format: "export-%02d.jsonl", file)))
            }
        }

        var exports: URL { directory.appendingPathComponent("exports") }
    }

    static let exports = Result { try Exports() }

    func nightly(_ schema: TestDatabase.Schema, fault: String? = nil) throws -> ChurnCommand.Result {
        let exports = try Self.exports.get()
        return try ChurnCommand.run(
            [
                "nightly", "--database-url", schema.url, "--trust-root", exports.trustRoot.path, "--max-rejects", "100",
                "--reports-root", exports.directory.appendingPathComponent("reports-\(schema.name)").path,
                "--lock-timeout", "30", exports.exports.path,
            ],
            environment: ["CHURN_FAULT": fault]
        )
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
            "source_files": "SELECT path, sha256, records::text, rejected::text FROM source_files ORDER BY path",
            "episodes": "SELECT * FROM billing_episodes ORDER BY environment, original_transaction_id, sequence",
            "analysis": "SELECT * FROM subscription_analysis ORDER BY 1, 2",
            "renewals": "SELECT * FROM subscription_renewals ORDER BY 1, 2, 3",
        ]
        var result: [String: [[String?]]] = [:]
        for (name, sql) in queries { result[name] = try connection.execute(sql).rows }
        return result
    }

    static let reference = Result { () throws -> [String: [[String?]]] in
        let schema = try TestDatabase.makeSchema("crashref")
        let run = try CrashTests().nightly(schema)
        guard run.status == 0 else { throw TestDatabaseError(message: "the clean run failed: \(run.stderr)") }
        return try CrashTests().snapshot(schema)
    }

    @Test(arguments: [
        "load.batch-copied:1", "load.batch-copied:2", "load.file-merged:1", "load.file-committed:1",
        "load.file-merged:3", "load.file-committed:4", "analyze.episodes-copied:1", "nightly.before-report:1",
    ])
    func aKillAtThisPointThenOneMoreRunEqualsACleanRun(_ fault: String) throws {
        let reference = try Self.reference.get()
        #expect((reference["notifications"]?.count ?? 0) > 1000)
        let schema = try TestDatabase.makeSchema("crash")
        let killed = try nightly(schema, fault: fault)
        // Foundation reports a process ended by a signal with the signal number as its status.
        #expect(killed.status == SIGKILL, "the run must die at \(fault): \(killed.stderr)")
        let again = try nightly(schema)
        #expect(again.status == 0, "\(again.stderr)")
        let after = try snapshot(schema)
        for (table, rows) in reference {
            #expect(after[table] == rows, "\(table) differs after a kill at \(fault)")
        }
        let connection = try schema.connect()
        let statuses = try connection.execute("SELECT status FROM load_runs ORDER BY id").rows.compactMap { $0[0] }
        #expect(!statuses.contains("running"), "no run is left looking alive: \(statuses)")
        #expect(statuses.last == "succeeded" || statuses.isEmpty == false)
    }

    @Test func killsAtRandomMomentsNeverCorruptTheHistory() throws {
        let reference = try Self.reference.get()
        let schema = try TestDatabase.makeSchema("crashtime")
        let exports = try Self.exports.get()
        // Kill a run at growing delays, several times over, then let one finish.
        for delay in [0.05, 0.3, 0.6, 1.0, 1.5] {
            let process = Process()
            process.executableURL = ChurnCommand.executable
            process.arguments = [
                "nightly", "--database-url", schema.url, "--trust-root", exports.trustRoot.path, "--max-rejects", "100",
                "--reports-root", exports.directory.appendingPathComponent("reports-\(schema.name)").path,
                "--lock-timeout", "30", exports.exports.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let final = try nightly(schema)
        #expect(final.status == 0, "\(final.stderr)")
        let after = try snapshot(schema)
        for (table, rows) in reference {
            #expect(after[table] == rows, "\(table) differs after random kills")
        }
    }
}
