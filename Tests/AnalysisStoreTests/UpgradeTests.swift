import Analysis
import AnalysisStore
import Foundation
import Logging
import PGClient
import Reports
import Store
import TestSupport
import Testing

/// A database of the previous schema (migrations 1–3) with notifications loaded and episodes analyzed by the v1
/// rules upgrades in place: 004 fills in the renewal currency, and the next analysis rebuilds every episode by the
/// v2 rules, giving what a database created on the current schema holds.
@Suite struct UpgradeTests {
    @Test func aVersion3DatabaseUpgradesAndItsNextAnalysisRebuildsEveryEpisode() async throws {
        // The reference: the same export loaded into and analyzed on the current schema.
        let current = try V2Database("upnew")
        try await current.load(current.lines.first, "first.jsonl")
        try await current.load(current.lines.second, "second.jsonl")
        try EpisodeAnalyzer(writer: current.writer, reader: current.reader, logger: .test)
            .analyze(environment: "Production")

        let old = try V2Database("upold", migrateThrough: 3)
        let connection = old.writer
        let from = try connection.quoteIdentifier(current.schema.name)
        // What loads of the previous version stored: the same runs, files and notifications, without the column
        // that did not exist.
        let columns =
            try connection.execute(
                """
                SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) FROM information_schema.columns
                WHERE table_schema = $1 AND table_name = 'notifications'
                """,
                [old.schema.name]
            ).scalar ?? ""
        #expect(!columns.contains("renewal_currency"))
        try copyRows(of: "load_runs", from: from, into: old.schema.name, connection: connection)
        try copyRows(of: "source_files", from: from, into: old.schema.name, connection: connection)
        try connection.execute("INSERT INTO notifications (\(columns)) SELECT \(columns) FROM \(from).notifications")
        for table in ["load_runs", "source_files"] {
            try connection.execute("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), max(id)) FROM \(table)")
        }
        // What the v1 analysis stored: no grace end without a date, N still open (a purchase closed nothing), and
        // an episode opened by L's late failure notice; every file analyzed.
        let v1Columns = """
            environment, original_transaction_id, sequence, product_id, storefront, start_at, has_grace, grace_end, \
            end_at, outcome, duration, saved_in_grace, recovery_price, recovery_currency, cohort_month, cohort_week, \
            offer_type, offer_discount_type, trial_conversion, opening_notification_uuid, closing_notification_uuid
            """
        try connection.execute(
            "INSERT INTO billing_episodes (\(v1Columns)) SELECT \(v1Columns) FROM \(from).billing_episodes"
        )
        try connection.execute(
            """
            UPDATE billing_episodes b SET grace_end = NULL, saved_in_grace = false
            FROM \(from).billing_episodes c
            WHERE c.grace_end_inferred AND (b.environment, b.original_transaction_id, b.sequence)
                = (c.environment, c.original_transaction_id, c.sequence)
            """
        )
        try connection.execute(
            """
            UPDATE billing_episodes SET outcome = 'open', end_at = NULL, duration = NULL, recovery_price = NULL,
                recovery_currency = NULL, closing_notification_uuid = NULL
            WHERE original_transaction_id IN ('N', 'L')
            """
        )
        try connection.execute(
            """
            INSERT INTO subscription_analysis
            SELECT environment, original_transaction_id, outside_environment, family_shared_skipped,
                   orphan_did_renew_billing_recovery, orphan_expired_billing_retry, orphan_grace_period_expired
            FROM \(from).subscription_analysis
            """
        )
        try connection.execute("INSERT INTO subscription_renewals SELECT * FROM \(from).subscription_renewals")
        try connection.execute(
            "INSERT INTO analyzed_files (environment, source_file_id) SELECT 'Production', id FROM source_files")
        #expect(try old.storedRows() != current.storedRows())

        #expect(try Migrator(logger: .test).migrate(connection) == Migrator.all.map(\.version).filter { $0 >= 4 })
        // The renewal currency, backfilled from the payload, is what a load writes now.
        let differences = try connection.execute(
            """
            SELECT count(*) FROM notifications o FULL JOIN \(from).notifications c USING (notification_uuid)
            WHERE o.renewal_currency IS DISTINCT FROM c.renewal_currency
            """
        ).scalar
        #expect(differences == "0")
        let currencies = try connection.execute(
            """
            SELECT renewal_currency, count(*) FROM notifications WHERE renewal_currency IS NOT NULL
            GROUP BY 1 ORDER BY 1
            """
        ).rows
        #expect(currencies == [["EUR", "2"], ["USD", "1"]])
        #expect(try connection.execute("SELECT count(*) FROM analyzed_files").scalar == "0")

        // The next analysis is a full rebuild by the v2 rules.
        let analyzer = EpisodeAnalyzer(writer: connection, reader: old.reader, logger: .test)
        let rebuilt = try analyzer.analyze(environment: "Production")
        #expect(rebuilt.filesAnalyzed == 2)
        #expect(try old.storedRows() == current.storedRows())
        let view = "SELECT e::text FROM episodes e ORDER BY 1"
        #expect(try connection.execute(view).rows == current.writer.execute(view).rows)
        let cohorts = "SELECT r::text FROM recovery_by_cohort r"
        #expect(try connection.execute(cohorts).rows == current.writer.execute(cohorts).rows)

        // Later loads fill in the renewal currency themselves, and the analysis is incremental again.
        var stories = old.stories
        try await old.load(
            [
                try stories.line(
                    "G", "DID_FAIL_TO_RENEW", at: 131, expires: 131, renewalPrice: 1990, renewalCurrency: "GBP")
            ],
            "third.jsonl"
        )
        let renewalCurrency = "SELECT renewal_currency FROM notifications WHERE original_transaction_id = 'G'"
        #expect(try connection.execute(renewalCurrency).rows == [["GBP"]])
        let incremental = try analyzer.analyze(environment: "Production")
        #expect(incremental.filesAnalyzed == 1 && incremental.subscriptionsRebuilt == 1)
        #expect(
            try connection.execute(
                "SELECT stake_price::text, stake_currency FROM billing_episodes WHERE original_transaction_id = 'G'"
            ).rows == [["1990", "GBP"]])
    }
}

/// A database of migration 007 with notifications loaded (some without a subscription, stored NULL then) and episodes
/// analyzed upgrades to 008 in place: every row is kept, the stored episodes stay valid, and the reports do not
/// change; later loads and incremental analyses go on as on a database created with 008.
@Suite struct SubscriptionKeysUpgradeTests {
    static let tables = [
        "load_runs", "source_files", "notifications", "quarantine", "billing_episodes", "subscription_analysis",
        "subscription_renewals", "analyzed_files",
    ]

    @Test func aVersion7DatabaseKeepsEveryRowAndItsReports() async throws {
        // The reference: the export loaded into and analyzed on the current schema (of either layout).
        let current = try V2Database("keysnew")
        var stories = current.stories
        try await current.load(
            [try stories.testNotification(at: 3)] + current.lines.first + [try stories.testNotification(at: 44)],
            "first.jsonl"
        )
        try await current.load(current.lines.second, "second.jsonl")
        try EpisodeAnalyzer(writer: current.writer, reader: current.reader, logger: .test)
            .analyze(environment: "Production")

        // What 007 held: the same rows, with NULL for a notification without a subscription, as its loads stored it.
        let old = try V2Database("keysold", migrateThrough: 7, stories: stories)
        let connection = old.writer
        let from = try connection.quoteIdentifier(current.schema.name)
        for table in Self.tables {
            try copyRows(of: table, from: from, into: old.schema.name, connection: connection)
        }
        for table in ["load_runs", "source_files"] {
            try connection.execute("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), max(id)) FROM \(table)")
        }
        try connection.execute(
            "UPDATE database_identity SET id = (SELECT id FROM \(from).database_identity)"
        )
        try connection.execute(
            "UPDATE notifications SET original_transaction_id = NULL WHERE original_transaction_id = ''"
        )
        #expect(
            try connection.execute("SELECT count(*) FROM notifications WHERE original_transaction_id IS NULL").scalar
                == "2")
        // The report is read with the current schema (the report reads tables added since): the old database's,
        // once upgraded, must be the current one's.
        let reportBefore = try Self.report(current)
        let oldColumns = try Self.tables.map { table in
            try connection.execute(
                """
                SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position)
                FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
                """,
                [old.schema.name, table]
            ).scalar ?? "*"
        }

        #expect(try Migrator(logger: .test).migrate(connection) == Migrator.versions(from: 8))
        // Every row kept, in the columns the old schema had (later columns are new, and empty in the old rows), but
        // the list of analyzed files: 015 empties it, so that one rebuild fills the customer tables.
        for (table, columns) in zip(Self.tables, oldColumns) where table != "analyzed_files" {
            let rows = "SELECT row(\(columns))::text FROM \(table) t ORDER BY 1"
            #expect(try connection.execute(rows).rows == current.writer.execute(rows).rows, "\(table)")
        }
        #expect(try connection.execute("SELECT count(*) FROM analyzed_files").scalar == "0")
        // That one rebuild, then the same report, and the same returns as a database built by this version.
        let analyzer = EpisodeAnalyzer(writer: connection, reader: old.reader, logger: .test)
        #expect(try analyzer.analyze(environment: "Production").filesAnalyzed == 2)
        #expect(try analyzer.analyze(environment: "Production").filesAnalyzed == 0)
        #expect(try Self.report(old) == reportBefore)
        let returns = try Self.returns(current)
        #expect(!returns.isEmpty)
        #expect(try Self.returns(old) == returns)
        let rebuilt = try analyzer.analyze(environment: "Production", full: true)
        #expect(rebuilt.filesAnalyzed == 2)
        #expect(try old.storedRows() == current.storedRows())
        #expect(try Self.report(old) == reportBefore)

        // A later file, with a notification without a subscription and a new failure, goes into both the same way.
        var later = stories
        let third = [
            try later.testNotification(at: 126),
            try later.line("G", "DID_FAIL_TO_RENEW", at: 127, expires: 127),
        ]
        try await old.load(third, "third.jsonl")
        try await current.load(third, "third.jsonl")
        let incremental = try analyzer.analyze(environment: "Production")
        #expect(incremental.filesAnalyzed == 1 && incremental.subscriptionsRebuilt == 2)
        try EpisodeAnalyzer(writer: current.writer, reader: current.reader, logger: .test)
            .analyze(environment: "Production")
        // Every column the same but the signed payload's hash, which rows stored before 013 cannot have (their signed
        // text is not stored); the later file's rows have theirs, as in the current schema.
        let rows = "SELECT (to_jsonb(n) - 'signed_payload_sha256')::text FROM notifications n ORDER BY 1"
        #expect(try connection.execute(rows).rows == current.writer.execute(rows).rows)
        let hashes = """
            SELECT notification_uuid::text, encode(signed_payload_sha256, 'hex') FROM notifications
            WHERE signed_payload_sha256 IS NOT NULL ORDER BY 1
            """
        let hashed = try connection.execute(hashes).rows
        #expect(hashed.count == third.count)
        for row in hashed {
            let stored = try current.writer.execute(
                "SELECT encode(signed_payload_sha256, 'hex') FROM notifications WHERE notification_uuid = $1::uuid",
                [row[0]]
            ).scalar
            #expect(stored == row[1])
        }
        #expect(try old.storedRows() == current.storedRows())
        #expect(try Self.report(old) == (try Self.report(current)))
    }

    /// The report of the stored episodes as of the latest notification: every file, as text.
    /// Each expired episode's follow-up as of the latest data: subscription, end and return.
    static func returns(_ database: V2Database) throws -> [String] {
        let store = StoredDataset(connection: database.writer)
        let asOf = try #require(try store.latestSignedDate())
        var expired = CustomerReturns()
        _ = try store.streamStored(environment: "Production", asOf: asOf) { try expired.add($0) }
        var rows: [String] = []
        try expired.followUps(environment: "Production", asOf: asOf, customersAsOfLatest: true, store: store) {
            rows.append("\($0.subscription) \($0.end) \($0.returnedAt.map(String.init) ?? "-")")
        }
        return rows.sorted()
    }

    static func report(_ database: V2Database) throws -> [Report.File] {
        let store = StoredDataset(connection: database.writer)
        let asOf = try #require(try store.latestSignedDate())
        let options = Report.Options(
            environment: "Production", databaseID: try store.databaseID(),
            rejections: try store.loadQuality(environment: "Production", asOf: asOf).rejections, latestSignedDate: asOf
        )
        return try Report(dataset: try store.stored(environment: "Production", asOf: asOf), options: options).files()
    }
}

/// Copies a table's rows from the current schema `from` (a quoted identifier) into the older schema `schema`, in
/// the columns the older table has: what loads of that version stored, without the columns added since.
func copyRows(of table: String, from: String, into schema: String, connection: PGConnection) throws {
    let columns =
        try connection.execute(
            """
            SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) FROM information_schema.columns
            WHERE table_schema = $1 AND table_name = $2
            """,
            [schema, table]
        ).scalar ?? "*"
    try connection.execute("INSERT INTO \(table) (\(columns)) SELECT \(columns) FROM \(from).\(table)")
}
