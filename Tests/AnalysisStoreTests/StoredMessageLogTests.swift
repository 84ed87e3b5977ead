import Analysis
import AnalysisStore
import Foundation
import PGClient
import Store
import TestSupport
import Testing

/// The app's message log as a report reads it from PostgreSQL (``StoredDataset/messageLog(environment:asOf:)``):
/// events linked by id, or through the token their subscription held then, from signed notifications that carry
/// `appAccountToken`.
@Suite struct StoredMessageLogTests {
    static let tokenA = "7f5c6e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6"
    static let tokenB = "0b1c2d3e-4f50-4617-8899-aabbccddeeff"

    /// `token` with every other letter in capitals.
    static func mixedCase(_ token: String) -> String {
        String(token.enumerated().map { $0.offset.isMultiple(of: 2) ? Character($0.element.uppercased()) : $0.element })
    }

    @Test func eventsLinkByIdOrByTheTokenHeldAtTheirTime() async throws {
        let schema = try TestDatabase.makeSchema("storedmessages")
        let writer = try schema.connect()
        try Migrator(logger: .test).migrate(writer)
        var stories = try SignedStories(name: "StoredMessages")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("messages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // T1 (app.one) holds token A from day 0 and token B from day 20; T2 (app.two) takes token A on day 10,
        // written in mixed case: a token compares as a UUID, in any case.
        let lines = [
            try stories.line(
                "T1", "SUBSCRIBED", "INITIAL_BUY", at: 0, expires: 30, bundleId: "app.one",
                transactionFields: ["appAccountToken": Self.tokenA]),
            try stories.line(
                "T2", "SUBSCRIBED", "INITIAL_BUY", at: 10, expires: 40, bundleId: "app.two",
                transactionFields: ["appAccountToken": Self.mixedCase(Self.tokenA)]),
            try stories.line(
                "T1", "DID_RENEW", at: 20, expires: 60, bundleId: "app.one",
                transactionFields: ["appAccountToken": Self.tokenB]),
        ]
        try await stories.load(lines, as: "tokens.jsonl", in: directory, into: writer)
        // (id, token, day, action): what each should link to is in the comment.
        let events: [(String?, String?, Int64)] = [
            ("T1", nil, 3),  // T1 by id
            (nil, Self.tokenA, 5),  // T1: only T1 has held A by then
            (nil, Self.tokenA, 12),  // T2: took A last
            (nil, Self.tokenB, 22),  // T1
            (nil, Self.tokenA, 25),  // T2: T1's latest token is B
            ("ZZ", nil, 26),  // no subscription of the environment
            ("T1", nil, 300),  // after the as-of time: not read
        ]
        for (id, token, day) in events {
            try writer.execute(
                """
                INSERT INTO message_events (original_transaction_id, app_account_token, at, action)
                VALUES ($1, $2, 'epoch'::timestamptz + $3::int8 * interval '1 millisecond', 'shown')
                """,
                [id, token, SignedStories.day(day)])
        }
        let store = StoredDataset(connection: writer)
        let log = try #require(try store.messageLog(environment: "Production", asOf: SignedStories.day(200)))
        #expect((log.count, log.unlinked) == (6, 1))
        #expect(
            log.spans == [
                "app.one": SignedStories.day(3)...SignedStories.day(22),
                "app.two": SignedStories.day(12)...SignedStories.day(25),
            ])

        // As of day 11, T2 has not taken A: the day-5 event is T1's, and the later ones are not read.
        let early = try #require(try store.messageLog(environment: "Production", asOf: SignedStories.day(11)))
        #expect((early.count, early.unlinked) == (2, 0))
        #expect(early.spans == ["app.one": SignedStories.day(3)...SignedStories.day(5)])

        // Another environment holds none of the subscriptions: every event is unlinked.
        let sandbox = try #require(try store.messageLog(environment: "Sandbox", asOf: SignedStories.day(200)))
        #expect((sandbox.count, sandbox.unlinked, sandbox.spans.isEmpty) == (6, 6, true))

        // Before the first event, no log.
        #expect(try store.messageLog(environment: "Production", asOf: SignedStories.day(2)) == nil)
    }
}
