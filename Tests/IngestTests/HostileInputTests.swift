import AppStoreNotifications
import Foundation
import Ingest
import TestSupport
import Testing

/// Hostile and broken input: each bad input is quarantined with its reason while every good line around it loads,
/// and nothing crashes the loader.
@Suite struct HostileInputTests {
    @Test func aFiftyMegabyteLineIsQuarantinedWithoutStoppingTheLoad() async throws {
        let harness = try LoadHarness("huge")
        let directory = try ExportDirectory()
        let tokens = try Fixtures.lifecycleTokens()
        var bytes = Array((tokens[0].asExportLine + "\n").utf8)
        bytes +=
            Array("{\"signedPayload\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "A"), count: 50 << 20)
            + Array("\"}\n".utf8)
        bytes += Array((tokens[1].asExportLine + "\n").utf8)
        let path = try directory.write("huge.jsonl", bytes: bytes)
        let summary = try await harness.load(
            [path], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect(summary.loaded == 2)
        #expect(summary.files.first?.rejectedByReason == ["record_too_large": 1])
        let row = try harness.rows(
            "SELECT line::text, raw_bytes::text, raw_truncated::text, length(raw)::text FROM quarantine")
        #expect(row == [["2", String((50 << 20) + 20), "true", String(64 << 10)]])
    }

    /// A file saved with a UTF-8 byte-order mark loads like the same file without one; a mark
    /// anywhere else is part of its line and refused with it.
    @Test func aByteOrderMarkAtTheStartOfAFileIsSkipped() async throws {
        let harness = try LoadHarness("bom")
        let directory = try ExportDirectory()
        let lines = try Fixtures.lifecycleTokens().map(\.asExportLine)
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = mark + Array((lines[0] + "\n" + lines[1] + "\n").utf8) + mark + Array((lines[2] + "\n").utf8)
        let path = try directory.write("bom.jsonl", bytes: text)
        let summary = try await harness.load(
            [path], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier()))
        #expect(summary.loaded == 2, "the first line loads; the third, behind a mark of its own, does not")
        #expect(summary.files.first?.rejectedByReason == ["not_json": 1])
        #expect(try harness.rows("SELECT line::text FROM quarantine") == [["3"]])
    }

    @Test func deeplyNestedJSONIsRefusedNotFatal() async throws {
        let harness = try LoadHarness("nested")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let nestedPayload = try signer.sign(raw: Array("{\"notificationType\":\"TEST\",\"x\":\(deep)}".utf8))
        let lines = [
            try signer.notification().asExportLine,
            "{\"signedPayload\":\(deep)}",
            deep,
            nestedPayload.asExportLine,
            try signer.notification().asExportLine,
        ]
        let path = try directory.write("nested.jsonl", lines: lines)
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: signer.verifier))
        #expect(summary.loaded == 2)
        #expect(summary.rejected == 3)
    }

    /// A number PostgreSQL's `numeric` cannot hold (`jsonb` stores numbers as `numeric`) in a member nobody reads:
    /// the line is refused as bad JSON, and the good lines of the same COPY are stored.
    @Test func aNumberBeyondPostgreSQLsNumericIsRefusedAndTheRestLoads() async throws {
        let harness = try LoadHarness("bignumber")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        func payload(_ number: String) throws -> String {
            try signer.sign(
                raw: Array(
                    #"{"notificationType":"TEST","notificationUUID":"\#(UUID().uuidString)","signedDate":1711843260000,"x":\#(number)}"#
                        .utf8)
            ).asExportLine
        }
        let lines = [
            try signer.notification().asExportLine,
            try payload("961e8148950000"),
            try payload("1e131071"),
            try payload("1.5e-16384"),
            try signer.notification().asExportLine,
        ]
        let path = try directory.write("numbers.jsonl", lines: lines)
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: signer.verifier))
        #expect(summary.loaded == 3)
        #expect(summary.files.first?.rejectedByReason == ["bad_json": 2])
        #expect(try harness.rows("SELECT line::text FROM quarantine ORDER BY line") == [["2"], ["4"]])
    }

    /// `FuzzRecordLine`'s finding (docs/RELIABILITY.md): a JSON string may write any character of a token as an
    /// escape. The line means the token, so it loads; the shortcut that reads `{"signedPayload":"<token>"}` on its
    /// bytes took the escape for part of the token and refused the line as bad base64url.
    @Test func aTokenWithJSONEscapesInItsLineLoadsAsTheTokenItMeans() async throws {
        let harness = try LoadHarness("escapes")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        let token = try signer.notification()
        // The payload's first character, then every "-" of the token, written as JSON escapes.
        let dot = try #require(token.firstIndex(of: "."))
        let after = token.index(after: dot)
        let escaped =
            String(token[..<after]) + String(format: "\\u%04x", token[after].asciiValue ?? 0)
            + String(token[token.index(after: after)...]).replacingOccurrences(of: "-", with: "\\u002d")
        let lines = [#"{"signedPayload":"\#(escaped)"}"#, try signer.notification().asExportLine]
        let path = try directory.write("escapes.jsonl", lines: lines)
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: signer.verifier))
        #expect(summary.loaded == 2)
        #expect(summary.rejected == 0)
    }

    @Test func aFileThatIsNotWhatItsNameSaysIsReadForWhatItIs() async throws {
        let harness = try LoadHarness("names")
        let directory = try ExportDirectory()
        let tokens = try Fixtures.lifecycleTokens()
        // Plain text named .gz: read as plain text.
        let plain = try directory.write("plain.jsonl.gz", lines: tokens.map(\.asExportLine))
        // Random bytes named .jsonl: every line quarantined, nothing stored, no crash.
        var random = SeededRandom(seed: 7)
        let noise = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let binary = try directory.write("binary.jsonl", bytes: noise)
        let summary = try await harness.load(
            [plain, binary], policy: AcceptancePolicy(verifier: try Fixtures.appleTestVerifier())
        )
        #expect(summary.files[0].loaded == 5)
        #expect(summary.files[1].loaded == 0)
        #expect(summary.files[1].rejected == summary.files[1].records)
        #expect(summary.files[1].records > 100)
    }

    /// Bit flips, truncations and splices of real signed payloads: every line is stored or quarantined, and the
    /// counts add up to the input.
    @Test func tenThousandMutatedLinesLoadWithEveryLineAccountedFor() async throws {
        let harness = try LoadHarness("mutants")
        let signer = try TestSigner()
        let directory = try ExportDirectory()
        var originals = try Fixtures.lifecycleTokens().map(\.asExportLine)
        for index in 0..<20 {
            originals.append(try signer.notification(signedDate: 1_711_843_260_000 + Int64(index) * 1000).asExportLine)
        }
        var random = SeededRandom(seed: 2026)
        var lines: [[UInt8]] = []
        while lines.count < 10_000 {
            var line = Array(originals[random.below(originals.count)].utf8)
            switch random.below(4) {
            case 0:
                for _ in 0...random.below(3) {
                    let index = random.below(line.count)
                    line[index] ^= UInt8(1 << random.below(8))
                }
            case 1:
                line = Array(line.prefix(random.below(line.count)))
            case 2:
                let other = Array(originals[random.below(originals.count)].utf8)
                line = Array(line.prefix(random.below(line.count))) + Array(other.suffix(random.below(other.count)))
            default:
                let index = random.below(line.count)
                line.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
            }
            // Keep one record per line: no newline bytes, no blank lines.
            line = line.map { $0 == 0x0A ? 0x20 : $0 }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            lines.append(line)
        }
        let path = try directory.write("mutants.jsonl", bytes: Array(lines.joined(separator: [0x0A])) + [0x0A])
        let verifier = JWSVerifier(trustRoots: try Fixtures.appleTestVerifier().trustRoots + signer.verifier.trustRoots)
        let summary = try await harness.load([path], policy: AcceptancePolicy(verifier: verifier))
        #expect(summary.records == lines.count)
        #expect(summary.loaded + summary.duplicates + summary.rejected == lines.count)
        let stored = Int(try harness.scalar("SELECT count(*) FROM notifications") ?? "") ?? -1
        let quarantined = Int(try harness.scalar("SELECT count(*) FROM quarantine") ?? "") ?? -1
        #expect(stored == summary.loaded)
        #expect(quarantined == summary.rejected)
        #expect(summary.rejected > 5_000, "most mutations must be refused")
        // Whatever was stored verified: no mutated payload slipped through as a different notification.
        #expect(stored <= originals.count)
    }
}
