import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import PGClient
import Reports
import TestPKI
import TestSupport
import Testing

/// Copies of a notificationUUID (METRICS.md v2.1, "Copies"): the earliest-signed copy is the one stored, and
/// `duplicates_skipped` as of T counts the further copies signed by T, whatever is loaded afterwards, in whatever
/// order, and however often the same file is loaded.
@Suite struct CopiesTests {
    /// A schema of its own, and the files of a test.
    struct Store {
        let writer: PGConnection
        let reader: PGConnection
        let directory: URL
        /// Signs the lines; its authority's root is the trust root.
        let stories: SignedStories

        init(_ label: String, stories: SignedStories) throws {
            let schema = try TestDatabase.makeSchema(label)
            writer = try schema.migrated()
            reader = try schema.connect()
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.stories = stories
        }

        /// Loads `lines` as the file `name`, verified, and returns what the load did.
        @discardableResult
        func load(_ lines: [String], _ name: String) async throws -> LoadSummary {
            try await stories.load(lines, as: name, in: directory, into: writer)
        }

        func duplicates(asOfDay day: Int64) throws -> Int {
            try StoredDataset(connection: writer).loadQuality(
                environment: "Production", asOf: SignedStories.day(day)
            ).counts.duplicatesSkipped
        }

        /// Every report file as of `day`, built afresh from the notifications signed by then.
        func report(asOfDay day: Int64) throws -> [Report.File] {
            let store = StoredDataset(connection: writer)
            let asOf = SignedStories.day(day)
            let options = Report.Options(
                environment: "Production", databaseID: try store.databaseID(),
                rejections: try store.loadQuality(environment: "Production", asOf: asOf).rejections,
                latestSignedDate: asOf
            )
            let dataset = try store.build(environment: "Production", asOf: asOf, reader: reader)
            return try Report(dataset: dataset, options: options).files()
        }

        /// The stored copy's signed day of the notification numbered `number`.
        func storedDay(of number: Int) throws -> Int64? {
            let uuid = String(format: "00000000-0000-4000-8000-%012d", number)
            return try writer.execute(
                "SELECT (extract(epoch FROM signed_date) * 1000)::int8 FROM notifications WHERE notification_uuid = $1",
                [uuid]
            ).scalar.flatMap { Int64($0) }.map { ($0 - SignedStories.dayZero) / 86_400_000 }
        }
    }

    @Test func copiesCountBySignedDateAndLaterLoadsLeaveAnEarlierReportAlone() async throws {
        var stories = try SignedStories(name: "Copies")
        let store = try Store("copies", stories: stories)
        // Subscription A fails on day 10 and recovers on day 12; B fails on day 25.
        let failure = try stories.line("A", "DID_FAIL_TO_RENEW", at: 10, expires: 10)
        let failureNumber = stories.lastNumber
        let recovery = try stories.line("A", "DID_RENEW", "BILLING_RECOVERY", at: 12, expires: 42, purchase: 12)
        let recoveryNumber = stories.lastNumber
        try await store.load([failure, recovery], "first.jsonl")
        #expect(try store.duplicates(asOfDay: 30) == 0)

        // The second file: the failure again as it was (signed on day 10), the recovery signed again on day 20, and
        // B's failure.
        let resentRecovery = try stories.line(
            "A", "DID_RENEW", "BILLING_RECOVERY", at: 20, expires: 42, purchase: 12, copyOf: recoveryNumber
        )
        let second = [failure, resentRecovery, try stories.line("B", "DID_FAIL_TO_RENEW", at: 25, expires: 25)]
        let loaded = try await store.load(second, "second.jsonl")
        #expect(loaded.loaded == 1 && loaded.duplicates == 2)
        #expect(try store.duplicates(asOfDay: 9) == 0)
        #expect(try store.duplicates(asOfDay: 15) == 1)
        #expect(try store.duplicates(asOfDay: 20) == 2)
        #expect(try store.storedDay(of: recoveryNumber) == 12)
        let asOf15 = try store.report(asOfDay: 15)
        let quality15 = try #require(asOf15.first { $0.name == "data_quality.csv" }).contents
        #expect(quality15.contains("duplicates_skipped,1\n"), "\(quality15)")

        // Loading the same file again adds no copy: its lines are the ones loaded before.
        try await store.load(second, "second-again.jsonl")
        #expect(try store.duplicates(asOfDay: 30) == 2)

        // Copies signed after day 15 leave the report as of day 15 as it was.
        let third = [
            try stories.line("A", "DID_FAIL_TO_RENEW", at: 16, expires: 10, copyOf: failureNumber),
            try stories.line(
                "A", "DID_RENEW", "BILLING_RECOVERY", at: 40, expires: 42, purchase: 12, copyOf: recoveryNumber),
        ]
        try await store.load(third, "third.jsonl")
        #expect(try store.report(asOfDay: 15) == asOf15)
        #expect(try store.duplicates(asOfDay: 30) == 3)
        #expect(try store.duplicates(asOfDay: 40) == 4)
    }

    @Test func aCopySignedEarlierThanTheStoredOneTakesItsPlace() async throws {
        var stories = try SignedStories(name: "EarlierCopy")
        let store = try Store("earliercopy", stories: stories)
        let failure = try stories.line("A", "DID_FAIL_TO_RENEW", at: 10, expires: 10)
        let late = try stories.line("A", "DID_RENEW", "BILLING_RECOVERY", at: 30, expires: 42, purchase: 12)
        let number = stories.lastNumber
        try await store.load([failure, late], "late.jsonl")
        #expect(try store.storedDay(of: number) == 30)
        let before = try store.report(asOfDay: 20)

        // The same recovery, signed on day 13: the copy that counts from now on.
        let early = try stories.line(
            "A", "DID_RENEW", "BILLING_RECOVERY", at: 13, expires: 42, purchase: 12, copyOf: number
        )
        let summary = try await store.load([early], "early.jsonl")
        #expect(summary.loaded == 0 && summary.duplicates == 1)
        #expect(try store.storedDay(of: number) == 13)
        #expect(try store.writer.execute("SELECT count(*) FROM notifications").scalar == "2")
        #expect(try store.duplicates(asOfDay: 20) == 0)
        #expect(try store.duplicates(asOfDay: 30) == 1)
        // As of day 20 the recovery is now known: the episode is recovered on day 12, no longer open.
        let after = try store.report(asOfDay: 20)
        let table = { (files: [Report.File]) in files.first { $0.name == "recovery_by_cohort.csv" }?.contents ?? "" }
        #expect(table(before) != table(after))
        #expect(table(after).contains("(all),(all),1,1,0,0,0,0,1"), "\(table(after))")

        // Loading the first file again changes nothing: its recovery is the copy recorded from it.
        try await store.load([failure, late], "late-again.jsonl")
        #expect(try store.storedDay(of: number) == 13)
        #expect(try store.duplicates(asOfDay: 30) == 1)
    }
}
