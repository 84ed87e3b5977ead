import AppStoreNotifications
import Foundation
import Ingest
import TestSupport
import Testing

/// Bad lines are quarantined with the expected reason while every good line around them loads.
@Suite struct BadInputTests {
    /// A bad line and the reason it must be quarantined with.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var reason: String
        var make: @Sendable (TestSigner) throws -> [UInt8]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "not JSON", reason: "not_json") { _ in Array("hello, world".utf8) },
        Case(name: "JSON without a payload", reason: "no_signed_payload") { _ in Array(#"{"foo": 1}"#.utf8) },
        Case(name: "signedPayload is a number", reason: "wrong_type") { _ in Array(#"{"signedPayload": 5}"#.utf8) },
        Case(name: "truncated JSON", reason: "not_json") { _ in Array(#"{"signedPayload": "eyJ"#.utf8) },
        Case(name: "two-part token", reason: "not_jws") { _ in
            Array(#"{"signedPayload": "eyJhbGciOiJFUzI1NiJ9.eyJ9"}"#.utf8)
        },
        Case(name: "bad base64 payload", reason: "bad_base64") { signer in
            let parts = try signer.notification().split(separator: ".")
            return Array("\(parts[0]).@@@@.\(parts[2])".asExportLine.utf8)
        },
        Case(name: "payload not JSON", reason: "bad_json") { signer in
            Array(try signer.sign(raw: Array("not json at all".utf8)).asExportLine.utf8)
        },
        Case(name: "signedDate as a string", reason: "wrong_type") { signer in
            Array(
                try signer.sign([
                    "notificationType": "TEST", "notificationUUID": UUID().uuidString, "signedDate": "yesterday",
                ]).asExportLine.utf8)
        },
        Case(name: "price as a string", reason: "wrong_type") { signer in
            Array(try signer.notification(transaction: ["price": "9.99"]).asExportLine.utf8)
        },
        Case(name: "no notificationUUID", reason: "missing_field") { signer in
            Array(try signer.sign(["notificationType": "TEST", "signedDate": 1_700_000_000_000]).asExportLine.utf8)
        },
        Case(name: "notificationUUID not a UUID", reason: "bad_uuid") { signer in
            Array(try signer.notification(uuid: "'; DROP TABLE notifications; --").asExportLine.utf8)
        },
        Case(name: "date out of range", reason: "date_out_of_range") { signer in
            Array(try signer.notification(transaction: ["expiresDate": 999_999_999_999_999]).asExportLine.utf8)
        },
        Case(name: "invalid UTF-8", reason: "invalid_utf8") { _ in [0x7B, 0xFF, 0xFE, 0x7D] },
        Case(name: "NUL byte", reason: "nul_byte") { _ in Array("{\"signedPayload\":\"a\u{0}b\"}".utf8) },
        Case(name: "JSON \\u0000 in the payload", reason: "bad_json") { signer in
            Array(try signer.notification(extra: ["note": "a\u{0}b"]).asExportLine.utf8)
        },
        Case(name: "tampered payload", reason: "bad_signature") { signer in
            let parts = try signer.notification().split(separator: ".").map(String.init)
            var payload = try #require(Base64URL.decode(Array(parts[1].utf8)))
            payload[payload.count / 2] ^= 0x01
            return Array("\(parts[0]).\(Base64URL.encode(payload)).\(parts[2])".asExportLine.utf8)
        },
        Case(name: "signed by another CA", reason: "untrusted_chain") { _ in
            Array(try TestSigner().notification().asExportLine.utf8)
        },
        Case(name: "status outside the smallint column", reason: "rejected_by_database") { signer in
            Array(try signer.notification(extra: ["status": 70_000]).asExportLine.utf8)
        },
        Case(name: "line too long", reason: "record_too_large") { _ in
            Array("{\"signedPayload\":\"\(String(repeating: "A", count: 300_000))\"}".utf8)
        },
    ]

    @Test(arguments: cases)
    func quarantinesTheBadLineAndLoadsTheRest(_ badCase: Case) async throws {
        let harness = try LoadHarness("bad")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        var lines: [[UInt8]] = []
        for index in 0..<3 {
            lines.append(Array(try signer.notification(signedDate: 1_711_843_260_000 + Int64(index)).asExportLine.utf8))
        }
        lines.insert(try badCase.make(signer), at: 1)
        let path = try directory.write("mixed.jsonl", bytes: Array(lines.joined(separator: [0x0A])) + [0x0A])
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: signer.verifier)) {
            $0.maxRecordBytes = 200_000
            $0.quarantineRawBytes = 1000
        }
        #expect(summary.loaded == 3, "the good lines around the bad one load")
        #expect(summary.rejected == 1)
        #expect(summary.files.first?.rejectedByReason == [badCase.reason: 1])
        let quarantined = try harness.rows(
            "SELECT file, line::text, reason, length(raw) > 0 OR $1 = 'invalid_utf8', raw_bytes::text FROM quarantine",
            [badCase.reason])
        #expect(quarantined.count == 1)
        #expect(quarantined.first?[0] == path)
        #expect(quarantined.first?[1] == "2")
        #expect(quarantined.first?[2] == badCase.reason)
        #expect(quarantined.first?[3] == "t")
        #expect(try harness.scalar("SELECT count(*) FROM notifications") == "3")
    }

    /// A batch PostgreSQL refuses goes through staging row by row: the refused row is quarantined, and the rest
    /// are stored once each, duplicates counted as such.
    @Test func aRefusedBatchStillStoresEachNotificationOnce() async throws {
        let harness = try LoadHarness("refused")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let stored = try signer.notification(signedDate: 1_711_843_260_001)
        let new = try signer.notification(signedDate: 1_711_843_260_002)
        let first = try directory.write("first.jsonl", lines: [stored.asExportLine])
        let second = try directory.write(
            "second.jsonl",
            lines: [
                stored.asExportLine, try signer.notification(extra: ["status": 70_000]).asExportLine, new.asExportLine,
                new.asExportLine,
            ]
        )
        let summary = try await harness.load([first, second], policy: AcceptancePolicy(verifier: signer.verifier))
        let file = try #require(summary.files.last)
        #expect(file.records == 4)
        #expect(file.loaded == 1)
        #expect(file.duplicates == 2)
        #expect(file.rejected == 1)
        #expect(file.rejectedByReason == ["rejected_by_database": 1])
        #expect(try harness.scalar("SELECT count(*) FROM notifications") == "2")
        #expect(try harness.scalar("SELECT source_line::text FROM notifications WHERE source_file_id = 2") == "3")
        let detail = try harness.scalar("SELECT detail FROM quarantine WHERE line = 2")
        #expect(detail?.contains("smallint") == true, "\(detail ?? "no quarantine row")")
    }

    @Test func filtersByBundleIDAndEnvironmentWithTheirOwnReasons() async throws {
        let harness = try LoadHarness("filters")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let lines = [
            try signer.notification(environment: "Production"),
            try signer.notification(environment: "Sandbox"),
            try signer.notification(environment: "Production", extra: ["bundleId": "com.other"]),
        ].map(\.asExportLine)
        let path = try directory.write("filters.jsonl", lines: lines)
        let summary = try await harness.load(
            [path],
            policy: AcceptancePolicy(verifier: signer.verifier, bundleID: "com.example", environment: "Production")
        )
        #expect(summary.loaded == 1)
        #expect(summary.files.first?.rejectedByReason == ["wrong_environment": 1, "wrong_bundle_id": 1])
    }

    @Test func theQuarantineKeepsABoundedPrefix() async throws {
        let harness = try LoadHarness("prefix")
        let directory = try ExportDirectory()
        let line = "x" + String(repeating: "y", count: 10_000)
        let path = try directory.write("long.jsonl", lines: [line])
        _ = try await harness.load([path], policy: AcceptancePolicy(verifier: nil)) { $0.quarantineRawBytes = 100 }
        let row = try harness.rows("SELECT length(raw)::text, raw_bytes::text, raw_truncated::text FROM quarantine")
        #expect(row == [["100", "10001", "true"]])
    }
}
