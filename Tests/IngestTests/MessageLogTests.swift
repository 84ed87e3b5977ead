import Analysis
import Foundation
import Logging
import TestSupport
import Testing

@testable import Ingest

/// `churn messages load`: the app's log of the billing-issue sheet read as CSV or JSON Lines, each event stored once,
/// each bad line quarantined with its file, line and reason while the rest loads.
@Suite struct MessageLogTests {
    /// 2026-03-01T09:30:00Z.
    static let nineThirty: Int64 = 1_772_357_400_000
    static let token = "7f5c6e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6"

    /// Three events (lines 2–4), a blank line, and five lines each refused for its own reason (6–10).
    static let csv = [
        "original_transaction_id,app_account_token,at,action,arm,screen",
        "1000,,2026-03-01T09:30:00Z,shown,,home",
        "\"1001\", ,2026-03-01T10:30:00+01:00,Deferred,holdout,settings",
        ",7F5C6E2A-1B2C-4D3E-8F90-A1B2C3D4E5F6,1772357400000,suppressed,\"arm, with \"\"quotes\"\"\",",
        "",
        "1002,,1772357400,shown,,",
        "1003,,2026-03-01T09:30:00Z,opened,,",
        ",,2026-03-01T09:30:00Z,shown,,",
        "1004,not-a-uuid,2026-03-01T09:30:00Z,shown,,",
        "1005,,2026-03-01T09:30:00Z",
    ]

    // MARK: - Reading lines

    static func read(_ lines: [String]) -> [MessageLogParser.Line] {
        var parser = MessageLogParser()
        return lines.filter { !$0.isEmpty }.map { parser.read(Array($0.utf8)) }
    }

    static func event(
        _ id: String?, _ token: String? = nil, at: Int64 = nineThirty, _ action: MessageEvent.Action = .shown,
        arm: String? = nil
    ) -> MessageLogParser.Line {
        .event(MessageEvent(originalTransactionId: id, appAccountToken: token, at: at, action: action, arm: arm))
    }

    static func reason(_ line: MessageLogParser.Line) -> Rejection.Reason? {
        if case .refused(let reason, _) = line { return reason }
        return nil
    }

    @Test func readsCSVByItsHeadersNames() {
        let lines = Self.read(Self.csv)
        #expect(lines[0] == .header)
        #expect(lines[1] == Self.event("1000"))
        // Quoted, a blank token, another zone, any case of the action.
        #expect(lines[2] == Self.event("1001", at: Self.nineThirty, .deferred, arm: "holdout"))
        // The token lowercased; milliseconds; a quoted arm with a comma and doubled quotes.
        #expect(lines[3] == Self.event(nil, Self.token, .suppressed, arm: "arm, with \"quotes\""))
        #expect(
            lines[4...].map(Self.reason) == [
                .messageBadTime, .messageBadAction, .messageNoSubscription, .messageBadToken, .messageMalformed,
            ])
        guard case .refused(_, let seconds) = lines[4] else { return }
        #expect(seconds.contains("looks like Unix seconds; give milliseconds (1772357400000)"))
        guard case .refused(_, let width) = lines[8] else { return }
        #expect(width == "3 fields where the header has 6")
    }

    @Test func readsJSONLines() {
        let lines = Self.read([
            #"{"original_transaction_id": 1000, "at": "2026-03-01T09:30:00Z", "action": "shown", "extra": [1]}"#,
            #"{"app_account_token": "7F5C6E2A-1B2C-4D3E-8F90-A1B2C3D4E5F6", "at": 1772357400000, "action": "deferred", "arm": 2}"#,
            #"{"original_transaction_id": "1001", "at": true, "action": "shown"}"#,
            #"[1, 2]"#,
            #"{"original_transaction_id": "1001", "at": "2026-03-01", "action": "shown"}"#,
            #"{"original_transaction_id": "1001", "at": "2026-03-01T09:30:00Z"}"#,
            "original_transaction_id,at,action",
        ])
        #expect(lines[0] == Self.event("1000"))
        #expect(lines[1] == Self.event(nil, Self.token, .deferred, arm: "2"))
        #expect(
            lines[2...].map(Self.reason) == [
                .messageMalformed, .messageMalformed, .messageBadTime, .messageBadAction, .messageMalformed,
            ])
        guard case .refused(_, let member) = lines[2] else { return }
        #expect(member == "at: expected a string or a whole number")
    }

    @Test func aFileWithoutAUsableHeaderRefusesEveryLineSayingWhy() {
        let lines = Self.read(["id,when,what", "1000,2026-03-01T09:30:00Z,shown"])
        #expect(lines.map(Self.reason) == [.messageMalformed, .messageMalformed])
        guard case .refused(_, let header) = lines[0], case .refused(_, let row) = lines[1] else { return }
        #expect(header.contains("lacks at, action, original_transaction_id or app_account_token"))
        #expect(row == "the file's first line is not a message log's header (see that line's refusal)")
    }

    @Test func bytesPostgreSQLCannotHoldAreRefused() {
        var parser = MessageLogParser()
        #expect(Self.reason(parser.read([0x31, 0x00])) == .nulByte)
        #expect(Self.reason(parser.read([0x31, 0xFF])) == .invalidUTF8)
    }

    // MARK: - Storing

    @Test func storesEachEventOnceAndQuarantinesBadLines() throws {
        let harness = try LoadHarness("message-log")
        let directory = try ExportDirectory()
        let path = try directory.write("sheet.csv", lines: Self.csv)
        let loader = MessageLogLoader(connection: harness.connection, logger: Logger.test)

        let first = try loader.load([path])
        let file = try #require(first.files.first)
        #expect((file.events, file.stored, file.duplicates, file.rejected) == (3, 3, 0, 5))
        #expect(
            file.rejectedByReason == [
                "message_bad_time": 1, "message_bad_action": 1, "message_no_subscription": 1, "message_bad_token": 1,
                "message_malformed": 1,
            ])
        #expect(
            file.sampleRejections.first
                == "\(path):6: message_bad_time: at \"1772357400\" looks like Unix seconds; give milliseconds "
                + "(1772357400000) or an ISO 8601 instant with its zone")
        let stored = try harness.rows(
            """
            SELECT original_transaction_id, app_account_token, (date_part('epoch', at) * 1000)::int8, action, arm,
                   source_line::text
            FROM message_events ORDER BY source_line
            """)
        #expect(
            stored == [
                ["1000", nil, "1772357400000", "shown", nil, "2"],
                ["1001", nil, "1772357400000", "deferred", "holdout", "3"],
                [nil, Self.token, "1772357400000", "suppressed", "arm, with \"quotes\"", "4"],
            ])
        let quarantined = try harness.rows("SELECT file, line::text, reason, raw FROM quarantine ORDER BY id")
        #expect(quarantined.map { $0[1] } == ["6", "7", "8", "9", "10"])
        #expect(quarantined.allSatisfy { $0[0] == path })
        #expect(quarantined.last?[3] == "1005,,2026-03-01T09:30:00Z")
        #expect(try harness.scalar("SELECT command || ' ' || status FROM load_runs") == "messages load succeeded")

        // Again, and the same events in JSON Lines, gzip-compressed: nothing new, and no refusal twice.
        let json = try directory.gzip(
            try directory.write(
                "sheet.jsonl",
                lines: [#"{"original_transaction_id":"1000","at":1772357400000,"action":"shown"}"#]))
        let second = try loader.load([path, json])
        #expect(second.files.map(\.stored) == [0, 0])
        #expect(second.files.map(\.duplicates) == [3, 1])
        #expect(second.files.first?.refusedBefore == 5)
        #expect(try harness.scalar("SELECT count(*) FROM message_events") == "3")
        #expect(try harness.scalar("SELECT count(*) FROM quarantine") == "5")
        // The file's hash names it, as an export's does.
        #expect(
            try harness.scalar("SELECT count(DISTINCT sha256) FROM source_files WHERE path = $1", [path]) == "1")
    }

    @Test func aLineTooLongIsRefusedAndTheRestLoads() throws {
        let harness = try LoadHarness("message-log-long")
        let directory = try ExportDirectory()
        let long = "1000,,2026-03-01T09:30:00Z,shown," + String(repeating: "x", count: MessageLogLoader.maxLineBytes)
        let path = try directory.write(
            "long.csv",
            lines: [
                "original_transaction_id,app_account_token,at,action,arm", long, "1001,,2026-03-01T09:30:00Z,shown,",
            ])
        let summary = try MessageLogLoader(connection: harness.connection, logger: Logger.test).load([path])
        #expect(summary.stored == 1)
        #expect(summary.files.first?.rejectedByReason == ["record_too_large": 1])
        let raw = try harness.rows("SELECT raw_bytes::text, raw_truncated::text, length(raw)::text FROM quarantine")
        #expect(raw == [[String(long.utf8.count), "true", String(MessageLogLoader.keepBytes)]])
    }
}
