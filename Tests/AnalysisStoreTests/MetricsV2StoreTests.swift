import Analysis
import AnalysisStore
import AppStoreNotifications
import Foundation
import Ingest
import Logging
import PGClient
import Store
import TestPKI
import TestSupport
import Testing

/// The stored episodes follow the v2 rules exactly as episodes built afresh do (METRICS.md, v2), through full and
/// incremental analyses: late and stale failure notices, new purchases during retry, missing closing
/// notifications, grace periods without a date (MetricsV2Story).
@Suite struct MetricsV2StoreTests {
    @Test func storedEpisodesEqualFreshOnesAfterEachLoadAndIncrementalEqualsFull() async throws {
        let database = try V2Database("v2store")
        let analyzer = EpisodeAnalyzer(writer: database.writer, reader: database.reader, logger: .test)

        try await database.load(database.lines.first, "first.jsonl")
        try analyzer.analyze(environment: "Production")
        try expectStoredEqualsFresh(database)
        // Before the second file: U and Y get the 16 days of the monthly product and of the app.
        #expect(try graceRows(database.writer) == ["T3 3 t t", "U 16 t f", "W 6 t f", "Y 16 t f", "Q - f f"].sorted())

        try await database.load(database.lines.second, "second.jsonl")
        let incremental = try analyzer.analyze(environment: "Production")
        #expect(incremental.filesAnalyzed == 1)
        #expect(incremental.subscriptionsRebuilt == 9, "H, Y, P, R1–R3, V, X and Z")
        // Three dated 28-day graces make 28 days the monthly product's and the app's length: U and Y change,
        // though the second file does not touch U; U is now saved in grace. X gets V's 17 days (16.5 rounded up).
        #expect(incremental.graceEndsChanged == 3, "U, Y and X")
        #expect(
            try graceRows(database.writer)
                == ["T3 3 t t", "U 28 t t", "W 6 t f", "X 17 t t", "Y 28 t f", "Q - f f"].sorted())
        try expectStoredEqualsFresh(database)
        let afterIncremental = try database.storedRows()
        try analyzer.analyze(environment: "Production", full: true)
        #expect(try database.storedRows() == afterIncremental)

        // What the table holds for each kind of episode.
        let rows = try database.writer.execute(
            """
            SELECT original_transaction_id || ' ' || sequence || ' ' || outcome || ' ' || coalesce(recovered_by, '-')
                   || ' ' || end_inferred || ' ' || coalesce(to_char(end_at - start_at, 'FMDD'), '-') || ' '
                   || coalesce(stake_price::text, '-') || ' ' || coalesce(stake_currency, '-') || ' '
                   || coalesce(bundle_id, '-')
            FROM billing_episodes WHERE original_transaction_id IN ('A', 'L', 'M', 'N', 'O', 'P', 'S', 'Q')
            ORDER BY original_transaction_id, sequence
            """
        ).rows.compactMap { $0[0] }
        #expect(
            rows == [
                "A 1 recovered retry false 5 2990 USD com.example",
                "L 1 recovered retry false 2 2990 USD com.example",
                "M 1 expired - true 60 2990 USD com.example",
                "N 1 recovered new_purchase false 5 4990 EUR com.example",
                "O 1 open - false - 2990 USD com.example",
                "P 1 open - false - 4990 EUR com.example",
                "Q 1 recovered retry false 1 2990 USD com.other",
            ]
        )
        let quality = try database.writer.execute(
            """
            SELECT original_transaction_id, stale_failure_notice, late_failure_notice, orphan_did_renew_billing_recovery
            FROM subscription_analysis WHERE stale_failure_notice + late_failure_notice > 0 ORDER BY 1
            """
        ).rows
        #expect(quality == [["L", "0", "1", "0"], ["S", "1", "0", "0"]])
        let store = StoredDataset(connection: database.writer)
        let asOf = try #require(try store.latestSignedDate())
        #expect(
            try store.stored(environment: "Production", asOf: asOf).dataQuality
                == DataQualityCounts(
                    staleFailureNotice: 1, lateFailureNotice: 1, inferredExpiry: 2, graceEndInferred: 5,
                    graceEndUnknown: 1
                )
        )
    }

    @Test func aQueryOfTheStoredEpisodesEndsThoseBeyondTheirRetryWindow() async throws {
        let database = try V2Database("v2query")
        try await database.load(database.lines.first + database.lines.second, "export.jsonl")
        try EpisodeAnalyzer(writer: database.writer, reader: database.reader, logger: .test)
            .analyze(environment: "Production")
        let store = StoredDataset(connection: database.writer)
        let latest = try #require(try store.latestSignedDate())
        for filter in [EpisodeFilter(), EpisodeFilter(productIds: [MetricsV2Story.monthly])] {
            let query = EpisodeQuery(environment: "Production", filter: filter)
            // Stored as the notifications say: O is open.
            #expect(try query.storedEpisodes(database.writer).first { $0.subscription == "O" }?.outcome == .open)
            for asOf in [latest, latest + 400 * T.day] {
                let answered = try #require(
                    try query.dataset(asOf: asOf, connection: database.writer, reader: database.reader))
                let fresh = try store.build(environment: "Production", asOf: asOf, reader: database.reader)
                #expect(answered.episodes == fresh.episodes.filter(filter.matches))
            }
        }
        let answered = try #require(
            try EpisodeQuery(environment: "Production").dataset(
                asOf: nil, connection: database.writer, reader: database.reader))
        let o = try #require(answered.episodes.first { $0.subscription == "O" })
        #expect(o.outcome == .expired && o.endInferred && o.end == SignedStories.day(80))
    }

    @Test func theEpisodesViewReadsTheRetryWindowTheAnalysisStored() async throws {
        let database = try V2Database("v2window")
        try await database.load(database.lines.first + database.lines.second, "export.jsonl")
        try EpisodeAnalyzer(writer: database.writer, reader: database.reader, logger: .test)
            .analyze(environment: "Production")
        let episodes = try EpisodeQuery(environment: "Production").storedEpisodes(database.writer)
        let stored = try database.writer.execute(
            """
            SELECT original_transaction_id, sequence, (date_part('epoch', window_end) * 1000)::int8,
                   (date_part('epoch', matures_at) * 1000)::int8
            FROM billing_episodes WHERE environment = 'Production'
            """
        ).rows
        #expect(stored.count == episodes.count && !episodes.isEmpty)
        for row in stored {
            let episode = try #require(episodes.first { $0.subscription == row[0] && String($0.sequence) == row[1] })
            #expect(row[2].flatMap { Int64($0) } == episode.retryWindowEnd)
            #expect(row[3].flatMap { Int64($0) } == episode.maturesAt)
        }
        // The view decides maturity and the inferred end from those columns alone: moved, it follows them.
        let viewed =
            "SELECT e.outcome, e.mature, e.end_at = b.window_end FROM episodes e JOIN billing_episodes b USING "
            + "(environment, original_transaction_id, sequence) WHERE original_transaction_id = 'O'"
        #expect(try database.writer.execute(viewed).rows == [["expired", "t", "t"]])
        try database.writer.execute(
            "UPDATE billing_episodes SET matures_at = matures_at + interval '1000 days' WHERE original_transaction_id = 'O'"
        )
        #expect(try database.writer.execute(viewed).rows == [["open", "f", nil]])
        try database.writer.execute(
            """
            UPDATE billing_episodes SET matures_at = matures_at - interval '1000 days',
                   window_end = window_end - interval '1 day'
            WHERE original_transaction_id = 'O'
            """
        )
        #expect(try database.writer.execute(viewed).rows == [["expired", "t", "t"]])
        let duration = try database.writer.execute(
            "SELECT duration_days FROM episodes WHERE original_transaction_id = 'O'"
        ).scalar
        #expect(duration.flatMap(Double.init) == 59)
    }

    @Test func theStoreDecidesGraceLengthsAsGraceLengthsDoes() {
        // Random dated (and some undated or inferred) grace episodes over a few products and apps.
        var random = SeededRandom(seed: 0x5EED)
        let products: [String?] = ["p1", "p2", "p3", nil]
        let bundles: [String?] = ["b1", "b2", nil]
        for _ in 0..<200 {
            var episodes: [Episode] = []
            for index in 0..<Int(random.next() % 12) {
                let start = SignedStories.dayZero + Int64(random.next() % 1000) * T.hour
                let hours = Int64(random.next() % 5) * 84 + Int64(random.next() % 3) * 12
                episodes.append(
                    Episode(
                        subscription: "s\(index)", start: start, hasGrace: random.next() % 8 != 0,
                        graceEnd: random.next() % 5 == 0 ? nil : start + hours * T.hour, outcome: .open,
                        graceEndInferred: random.next() % 10 == 0,
                        bundleId: bundles[Int(random.next() % UInt64(bundles.count))],
                        openingNotificationUUID: "u\(index)"
                    )
                )
                episodes[index].productId = products[Int(random.next() % UInt64(products.count))]
            }
            // What the database's GROUP BY gives: dated grace episodes per product, app and length.
            var counts: [GraceLengths.Count: Int] = [:]
            for episode in episodes where episode.hasGrace && !episode.graceEndInferred {
                guard let graceEnd = episode.graceEnd, let days = GraceLengths.days(from: episode.start, to: graceEnd)
                else { continue }
                let key = GraceLengths.Count(
                    productId: episode.productId, bundleId: episode.bundleId, days: days, episodes: 0)
                counts[key, default: 0] += 1
            }
            let rows = counts.map { row, count in
                GraceLengths.Count(productId: row.productId, bundleId: row.bundleId, days: row.days, episodes: count)
            }
            let expected = GraceLengths(observedIn: episodes)
            let decided = GraceLengths(counts: rows)
            for product in products {
                for bundle in bundles {
                    #expect(
                        decided.length(productId: product, bundleId: bundle)
                            == expected.length(productId: product, bundleId: bundle))
                }
            }
        }
    }

    /// The stored dataset equals the fresh one, and so do the stored rows (with the grace ends the analysis
    /// inferred in SQL) once the as-of time's retry window is applied: at the latest signedDate and a year later.
    private func expectStoredEqualsFresh(_ database: V2Database) throws {
        let store = StoredDataset(connection: database.writer)
        let latest = try #require(try store.latestSignedDate())
        let rows = try EpisodeQuery(environment: "Production").storedEpisodes(database.writer)
        for asOf in [latest, latest + 365 * T.day] {
            let fresh = try store.build(environment: "Production", asOf: asOf, reader: database.reader)
            #expect(try store.stored(environment: "Production", asOf: asOf) == fresh)
            var closed = rows
            for index in closed.indices { closed[index].closeRetryWindow(asOf: asOf) }
            #expect(closed == fresh.episodes)
        }
        // The stored saved_in_grace is the episode's.
        let saved = try database.writer.execute(
            "SELECT original_transaction_id FROM billing_episodes WHERE saved_in_grace ORDER BY 1"
        ).rows.compactMap { $0[0] }
        #expect(saved == rows.filter(\.isSavedInGrace).map(\.subscription))
    }

    /// Grace episodes whose end came from no notification: subscription, grace days, inferred, saved.
    private func graceRows(_ connection: PGConnection) throws -> [String] {
        try connection.execute(
            """
            SELECT original_transaction_id || ' '
                   || coalesce(round(extract(epoch FROM grace_end - start_at) / 86400)::text, '-') || ' '
                   || CASE WHEN grace_end_inferred THEN 't' ELSE 'f' END || ' '
                   || CASE WHEN saved_in_grace THEN 't' ELSE 'f' END
            FROM billing_episodes WHERE has_grace AND (grace_end IS NULL OR grace_end_inferred)
            """
        ).rows.compactMap { $0[0] }.sorted()
    }
}

/// A schema of its own with the MetricsV2Story export ready to load.
struct V2Database {
    let schema: TestDatabase.Schema
    let writer: PGConnection
    let reader: PGConnection
    let stories: SignedStories
    let lines: (first: [String], second: [String])
    let directory: URL

    /// - Parameter given: stories to sign with (their authority, and their numbering continued); nil for new ones.
    init(_ label: String, migrateThrough last: Int? = nil, stories given: SignedStories? = nil) throws {
        schema = try TestDatabase.makeSchema(label)
        writer = try schema.connect()
        try Migrator(logger: .test).migrate(writer, through: last)
        reader = try schema.connect()
        var stories = try given ?? SignedStories(name: "MetricsV2")
        lines = try MetricsV2Story.lines(&stories)
        self.stories = stories
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Loads `lines` as the file `name`, verified against the stories' test root.
    func load(_ lines: [String], _ name: String) async throws {
        try await stories.load(lines, as: name, in: directory, into: writer)
    }

    /// Every row of the episode tables, as text, in a fixed order.
    func storedRows() throws -> [String] {
        var rows: [String] = []
        for table in ["billing_episodes", "subscription_analysis", "subscription_renewals"] {
            rows += try writer.execute("SELECT t::text FROM \(table) t ORDER BY 1").rows.compactMap { $0[0] }
        }
        return rows
    }
}
