import AppStoreNotifications
import Foundation
import Ingest
import TestSupport
import Testing

/// A line whose signed payload is byte-identical to a stored notification's is counted as its copy without being
/// decoded or verified again (`notifications.signed_payload_sha256`), and every count and every row written is what
/// verifying it would have given; a line that differs in any byte of its token is verified, and refused when its
/// signature does not hold.
@Suite struct StoredPayloadTests {
    /// Export lines signed by a test CA: notifications, a line repeated, a later-signed copy of one, a Sandbox one, a
    /// bare token and a line that is not JSON.
    struct Export {
        let signer: TestSigner
        let lines: [String]
        /// The tokens of the first notifications, by their UUIDs.
        let tokens: [(uuid: String, token: String)]
        /// Lines of `lines` whose token is a stored notification's once `lines` is loaded, verified.
        let storedLines: Int

        init() throws {
            signer = try TestSigner()
            var tokens: [(uuid: String, token: String)] = []
            for index in 0..<30 {
                let uuid = UUID().uuidString.lowercased()
                let token = try signer.notification(
                    uuid: uuid, signedDate: 1_711_843_260_000 + Int64(index) * 60_000,
                    transaction: ["originalTransactionId": "sub-\(index % 7)", "transactionId": "tx-\(index)"],
                    renewal: ["originalTransactionId": "sub-\(index % 7)"]
                )
                tokens.append((uuid, token))
            }
            var lines = tokens.map(\.token.asExportLine)
            // Line 31 repeats line 3 byte for byte; line 32 is the same notification as line 5, signed later.
            lines.append(tokens[2].token.asExportLine)
            lines.append(
                try signer.notification(
                    uuid: tokens[4].uuid, signedDate: 1_711_900_000_000,
                    transaction: ["originalTransactionId": "sub-4", "transactionId": "tx-4"],
                    renewal: ["originalTransactionId": "sub-4"]
                ).asExportLine
            )
            lines.append(try signer.notification(signedDate: 1_711_843_260_000, environment: "Sandbox").asExportLine)
            lines.append(try signer.notification(signedDate: 1_711_843_270_000))
            lines.append("not json")
            self.lines = lines
            self.tokens = tokens
            // All but the later-signed copy (a copy, not a stored row) and the line that is not JSON.
            storedLines = lines.count - 2
        }
    }

    /// The same loads into two schemas, one recognising stored lines (the default) and one checking every line.
    struct Pair {
        let recognising: LoadHarness
        let checking: LoadHarness

        init(_ label: String) throws {
            recognising = try LoadHarness("\(label)skip")
            checking = try LoadHarness("\(label)check")
        }

        /// Loads `paths` into both; expects the same summaries but for the lines not verified again.
        /// - Returns: the summary of the schema that recognises stored lines.
        func load(
            _ paths: [String], policy: AcceptancePolicy, configure: @escaping (inout LoadOptions) -> Void = { _ in }
        ) async throws -> LoadSummary {
            let recognised = try await recognising.load(paths, policy: policy) { configure(&$0) }
            let checked = try await checking.load(paths, policy: policy) {
                configure(&$0)
                $0.checksStoredPayloadsAgain = true
            }
            #expect(checked.notVerifiedAgain == 0)
            #expect(recognised.files.map(Self.counts) == checked.files.map(Self.counts))
            return recognised
        }

        /// A file's counts as the summary prints and stores them.
        static func counts(_ file: LoadSummary.File) -> String {
            let reasons = file.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(file.path) \(file.sha256) records \(file.records) loaded \(file.loaded) resumed \(file.resumed) "
                + "duplicates \(file.duplicates) rejected \(file.rejected) before \(file.refusedBefore) "
                + "\(reasons) \(file.sampleRejections) \(file.previousRunWithSameContent.map(String.init) ?? "-")"
        }

        /// Every row the loads wrote, but for times.
        static func tables(_ harness: LoadHarness) throws -> [[String?]] {
            try [
                """
                SELECT notification_uuid::text, original_transaction_id, signed_date::text, environment,
                       source_file_id::text, source_line::text, load_run_id::text, verified::text,
                       encode(signed_payload_sha256, 'hex')
                FROM notifications ORDER BY notification_uuid
                """,
                """
                SELECT original_transaction_id, notification_uuid::text, signed_date::text, source_file_id::text,
                       source_line::text
                FROM notification_copies ORDER BY notification_uuid, signed_date, source_file_id, source_line
                """,
                """
                SELECT id::text, load_run_id::text, path, size_bytes::text, sha256, records::text, loaded::text,
                       duplicates::text, rejected::text
                FROM source_files ORDER BY id
                """,
                """
                SELECT load_run_id::text, source_file_id::text, file, line::text, item::text, reason, detail, raw,
                       raw_bytes::text, raw_truncated::text, original_transaction_id, notification_uuid::text,
                       signed_date::text, environment, resolved_by_run::text
                FROM quarantine ORDER BY id
                """,
                """
                SELECT id::text, status, files::text, records::text, loaded::text, duplicates::text, rejected::text,
                       verified::text, acceptance
                FROM load_runs ORDER BY id
                """,
            ].flatMap { try harness.rows($0) + [["--"]] }
        }

        func expectTheSameTables() throws {
            let recognised = try Self.tables(recognising)
            let checked = try Self.tables(checking)
            #expect(recognised.count == checked.count)
            for (index, (left, right)) in zip(recognised, checked).enumerated() where left != right {
                Issue.record("row \(index) differs: \(left) against \(right)")
            }
        }
    }

    @Test func loadsOfStoredLinesCountAndWriteWhatVerifyingThemWould() async throws {
        let export = try Export()
        let pair = try Pair("storedsame")
        let directory = try ExportDirectory()
        let path = try directory.write("export.jsonl", lines: export.lines)
        let policy = AcceptancePolicy(verifier: export.signer.verifier)
        let small: (inout LoadOptions) -> Void = { $0.batchSize = 8 }

        let first = try await pair.load([path], policy: policy, configure: small)
        #expect((first.loaded, first.duplicates, first.rejected) == (32, 2, 1))
        // Line 31 repeats line 3, stored three batches before: it is recognised already.
        #expect(first.notVerifiedAgain == 1)

        // The same file again: every line stored before is recognised, none verified; the later-signed copy is
        // verified (its token is no stored row's), and the bad line refused again.
        let second = try await pair.load([path], policy: policy, configure: small)
        #expect((second.loaded, second.duplicates, second.rejected) == (0, 34, 1))
        #expect(second.notVerifiedAgain == export.storedLines)

        // As if the first load had been killed before its file completed: its rows are the file's own again.
        for harness in [pair.recognising, pair.checking] {
            _ = try harness.rows("UPDATE source_files SET sha256 = '' WHERE id = (SELECT min(id) FROM source_files)")
        }
        let resumed = try await pair.load([path], policy: policy, configure: small)
        #expect(resumed.resumed == 32 && resumed.loaded == 0)
        #expect(resumed.notVerifiedAgain == export.storedLines)

        // Another file: the lines in another order, the stored tokens as bare lines, a new notification.
        var lines = export.lines.reversed().map { $0 }
        lines += export.tokens.prefix(5).map(\.token)
        lines.append(try export.signer.notification().asExportLine)
        let other = try directory.write("other.jsonl", lines: lines)
        let reordered = try await pair.load([other], policy: policy)
        #expect((reordered.loaded, reordered.rejected) == (1, 1))
        #expect(reordered.notVerifiedAgain == export.storedLines + 5)

        // Filters: a stored line they refuse is decoded, verified and refused as ever.
        let production = try await pair.load(
            [path], policy: AcceptancePolicy(verifier: policy.verifier, environment: "Production"))
        #expect(production.files.first?.rejectedByReason["wrong_environment"] == 1)
        #expect(production.notVerifiedAgain == export.storedLines - 1)
        let bundle = try await pair.load(
            [path], policy: AcceptancePolicy(verifier: policy.verifier, bundleID: "com.other"))
        #expect(bundle.files.first?.rejectedByReason["wrong_bundle_id"] == export.lines.count - 1)
        #expect(bundle.notVerifiedAgain == 0)
        let sameBundle = try await pair.load(
            [path], policy: AcceptancePolicy(verifier: policy.verifier, bundleID: "com.example"))
        #expect(sameBundle.notVerifiedAgain == export.storedLines)

        // Other trust roots: the lines are checked against them, and refused.
        let stranger = try TestSigner()
        let untrusted = try await pair.load([path], policy: AcceptancePolicy(verifier: stranger.verifier))
        #expect(untrusted.files.first?.rejectedByReason["untrusted_chain"] == export.lines.count - 1)
        #expect(untrusted.notVerifiedAgain == 0)

        // The nested tokens checked too: the rows were stored without that check, so every line is verified.
        let nested = try await pair.load(
            [path], policy: AcceptancePolicy(verifier: policy.verifier, verifiesNestedTokens: true))
        #expect(nested.rejected == 1 && nested.notVerifiedAgain == 0)

        // Without verification, nothing is decoded again either.
        let unverified = try await pair.load([path], policy: AcceptancePolicy(verifier: nil))
        #expect(unverified.notVerifiedAgain == export.storedLines)

        try pair.expectTheSameTables()
        // Every stored row carries the SHA-256 of the token it was stored from.
        for (uuid, token) in export.tokens {
            let hash = try pair.recognising.scalar(
                "SELECT encode(signed_payload_sha256, 'hex') = encode(sha256(convert_to($2, 'UTF8')), 'hex') FROM notifications WHERE notification_uuid = $1::uuid",
                [uuid, token]
            )
            #expect(hash == "t", "\(uuid)")
        }
    }

    /// A tampered copy of a stored notification: the same notificationUUID, one field of the payload changed, or one
    /// character of the signature; its bytes differ, so it is verified, and refused.
    enum Tampering: String, CaseIterable, Sendable {
        /// A member added at the header's start: its first whole 64-byte blocks differ.
        case header
        case payload, signature
    }

    @Test(arguments: Tampering.allCases)
    func aTamperedLineCarryingAStoredNotificationUUIDIsRefused(tampering: Tampering) async throws {
        let harness = try LoadHarness("tampered\(tampering.rawValue)")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let uuid = UUID().uuidString.lowercased()
        let token = try signer.notification(uuid: uuid, type: "DID_RENEW")
        let policy = AcceptancePolicy(verifier: signer.verifier)
        let stored = try await harness.load(
            [try directory.write("stored.jsonl", lines: [token.asExportLine])], policy: policy)
        #expect(stored.loaded == 1)

        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        var tampered = parts
        switch tampering {
        case .header:
            let header = String(decoding: try #require(Base64URL.decode(Array(parts[0].utf8))), as: UTF8.self)
            #expect(header.hasPrefix("{"))
            tampered[0] = Base64URL.encode(Array(("{\"typ\":\"JWT\"," + header.dropFirst()).utf8))
        case .payload:
            let payload = String(decoding: try #require(Base64URL.decode(Array(parts[1].utf8))), as: UTF8.self)
            let changed = payload.replacingOccurrences(of: "\"DID_RENEW\"", with: "\"REFUND\"")
            #expect(changed != payload)
            tampered[1] = Base64URL.encode(Array(changed.utf8))
        case .signature:
            var signature = Array(parts[2])
            let middle = signature.count / 2
            signature[middle] = signature[middle] == "A" ? "B" : "A"
            tampered[2] = String(signature)
        }
        let path = try directory.write("tampered.jsonl", lines: [tampered.joined(separator: ".").asExportLine])
        let summary = try await harness.load([path], policy: policy)
        #expect((summary.loaded, summary.duplicates, summary.rejected) == (0, 0, 1))
        #expect(summary.notVerifiedAgain == 0)
        #expect(summary.files.first?.rejectedByReason == ["bad_signature": 1])
        let quarantined = try harness.rows(
            """
            SELECT q.file, q.line::text, q.reason, q.notification_uuid::text, q.resolved_by_run::text
            FROM quarantine q
            """
        )
        #expect(quarantined == [[path, "1", "bad_signature", uuid, nil]])
        // The stored notification is the one signed.
        #expect(try harness.scalar("SELECT notification_type FROM notifications") == "DID_RENEW")
        #expect(try harness.scalar("SELECT count(*) FROM notification_copies") == "0")
    }

    @Test func rowsStoredBeforeTheirHashWasKeptAreVerifiedWhenLoadedAgain() async throws {
        let export = try Export()
        let harness = try LoadHarness("storednohash")
        let directory = try ExportDirectory()
        let path = try directory.write("export.jsonl", lines: export.lines)
        let policy = AcceptancePolicy(verifier: export.signer.verifier)
        let first = try await harness.load([path], policy: policy)
        // What rows stored before migration 013 hold.
        _ = try harness.rows("UPDATE notifications SET signed_payload_sha256 = NULL")
        let second = try await harness.load([path], policy: policy)
        #expect((second.loaded, second.duplicates, second.rejected) == (0, 34, 1))
        #expect(second.notVerifiedAgain == 0)
        #expect(first.loaded == 32)
    }
}
