import Analysis
import Foundation
import Logging
import PGClient
import Store

/// Rebuilds the stored billing-retry episodes (`billing_episodes`, `subscription_analysis`,
/// `subscription_renewals`) for the subscriptions that loads since the last analysis touched.
///
/// The nightly cost follows the new data: only files not yet in `analyzed_files` are looked at, and only their
/// subscriptions are rebuilt (each from its whole history, so the result equals a full rebuild). A file counts once
/// it is settled, that is when no load will add rows to it any more: its load stored it whole (it has its SHA-256),
/// or its load run is no longer running (it failed, or its process died and it is marked `interrupted` first: the
/// batches it committed are analyzed). A file still being loaded commits batch by batch and waits for a later
/// analysis, so none of its rows is missed. Notifications
/// stream from a reader connection (`COPY … TO STDOUT`, ordered by subscription) while rows stream into the
/// writer connection (`COPY … FROM STDIN`) inside one transaction: a crash leaves the previous state intact.
///
/// The stored episodes say what the notifications say, built as of ``openEnded``; what depends on the as-of time is
/// applied when they are read (``EpisodeDataset/finish()``, the `episodes` view). Only the grace ends of grace
/// periods without a date, which depend on all episodes of the environment, are inferred here too, after each
/// rebuild (``inferGraceEnds(environment:)``).
package struct EpisodeAnalyzer {
    /// What one analysis did.
    package struct Summary: Sendable {
        package var environment: String
        package var filesAnalyzed: Int
        package var subscriptionsRebuilt: Int
        package var notificationsRead: Int
        package var episodesWritten: Int
        /// Stored episodes whose inferred grace end was set, changed or removed (any subscription of the environment).
        package var graceEndsChanged = 0
        /// Subscriptions linked to another into a customer (any subscription of the environment).
        package var linkedSubscriptions = 0
        package var seconds: Double
    }

    /// Counts, for a nightly run, the files of `environment` analysed (by any process) since the last nightly run
    /// that counted, and says whether any of them stored a notification of `environment`: new data. One statement
    /// marks them counted, so a file an analysis adds meanwhile is left for the next run.
    package static func countNewNotifications(environment: String, on connection: PGConnection) throws -> Bool {
        try connection.execute(
            """
            WITH counted AS (
                UPDATE analyzed_files SET seen_by_nightly = true
                WHERE environment = $1 AND NOT seen_by_nightly
                RETURNING source_file_id
            )
            SELECT EXISTS (
                SELECT 1 FROM counted c
                WHERE EXISTS (SELECT 1 FROM notifications n WHERE n.source_file_id = c.source_file_id AND n.environment = $1)
            ) AS found
            """,
            [environment]
        ).scalar == "t"
    }

    /// The as-of the stored episodes are built with: after any real date, so nothing is cut and no open episode
    /// is censored; reports apply their own as-of.
    package static let openEnded: Int64 = 253_402_300_799_999

    let writer: PGConnection
    let reader: PGConnection
    let logger: Logger

    /// - Parameters:
    ///   - writer: the connection whose transaction replaces the stored rows.
    ///   - reader: a second connection to the same database, used only to stream notifications.
    package init(writer: PGConnection, reader: PGConnection, logger: Logger) {
        self.writer = writer
        self.reader = reader
        self.logger = logger
    }

    /// Brings the stored episodes of `environment` up to date with every committed load.
    /// - Parameter full: rebuild every subscription, not only the touched ones.
    @discardableResult
    package func analyze(environment: String, full requestedFull: Bool = false) throws -> Summary {
        let started = Date()
        var full = requestedFull
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.analyze, on: writer)
        // A query or report waits here while another command analyses; it says so rather than hang in silence.
        try writer.advisoryLock(lock, awaiting: "analysis", logger: logger)
        defer { _ = try? writer.advisoryUnlock(lock) }
        // Before the snapshot: the files of loads that died are settled.
        try LoadRunLocks(connection: writer).markAbandonedRunsInterrupted()

        // The reader's snapshot decides what this analysis covers.
        try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        defer { _ = try? reader.execute("ROLLBACK") }
        if !full {
            // Nothing analyzed yet: every subscription is touched, and the full rebuild's plain scan is faster.
            full = try reader.execute(
                "SELECT 1 FROM analyzed_files WHERE environment = $1 LIMIT 1", [environment]
            ).rows.isEmpty
        }
        // A full rebuild reads every stored row, but it too counts only settled files as analyzed.
        let files = try reader.execute(
            full
                ? """
                SELECT f.id FROM source_files f JOIN load_runs r ON r.id = f.load_run_id
                WHERE (f.sha256 <> '' OR r.status <> 'running')
                ORDER BY f.id
                """
                : """
                SELECT f.id FROM source_files f JOIN load_runs r ON r.id = f.load_run_id
                WHERE (f.sha256 <> '' OR r.status <> 'running')
                  AND NOT EXISTS (SELECT 1 FROM analyzed_files a WHERE a.environment = $1 AND a.source_file_id = f.id)
                ORDER BY f.id
                """,
            full ? [] : [environment]
        )
        let fileID = try files.field("id")
        let pendingFiles = try files.rows.map { try $0.decode(Int64.self, fileID) }
        // Renewals Apple's transaction history proved since the last analysis: their subscriptions are rebuilt too.
        let proofs = try reader.execute(
            """
            SELECT id FROM subscription_checks
            WHERE environment = $1 AND proof_transaction_id IS NOT NULL AND NOT proof_analyzed
            ORDER BY id
            """,
            [environment]
        )
        let proofID = try proofs.field("id")
        let pendingProofs = try proofs.rows.map { try $0.decode(Int64.self, proofID) }
        var summary = Summary(
            environment: environment, filesAnalyzed: pendingFiles.count, subscriptionsRebuilt: 0, notificationsRead: 0,
            episodesWritten: 0, seconds: 0
        )
        guard !pendingFiles.isEmpty || !pendingProofs.isEmpty else {
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
        let fileList = PGArray.bigints(pendingFiles)
        let proofList = PGArray.bigints(pendingProofs)
        // A full rebuild reads every notification without a join (see rebuildTouched) and counts subscriptions there.
        if !full {
            try reader.execute(
                "CREATE TEMP TABLE IF NOT EXISTS churn_touched (original_transaction_id text PRIMARY KEY)"
            )
            try reader.execute("TRUNCATE churn_touched")
            summary.subscriptionsRebuilt = try reader.execute(
                """
                INSERT INTO churn_touched
                SELECT DISTINCT coalesce(original_transaction_id, '') FROM notifications
                WHERE source_file_id = ANY($1)
                UNION
                SELECT original_transaction_id FROM subscription_checks WHERE id = ANY($2)
                """,
                [fileList, proofList]
            ).affectedRows
            try reader.execute("ANALYZE churn_touched")
        }

        try writer.withTransaction {
            try writer.execute(
                "CREATE TEMP TABLE IF NOT EXISTS churn_touched (original_transaction_id text PRIMARY KEY)")
            try writer.execute("TRUNCATE churn_touched")
            var droppedIndexes: [String] = []
            if full {
                droppedIndexes = try clearTables(environment: environment)
            } else {
                try writer.copyIn("COPY churn_touched (original_transaction_id) FROM STDIN") { out in
                    try reader.copyOut("COPY churn_touched TO STDOUT") { row in
                        try out.write(UnsafeRawBufferPointer(row))
                    }
                }
                // Without statistics the planner takes the temporary table for a large one and answers each DELETE
                // below with a scan of the whole table; with them, it probes the primary keys.
                try writer.execute("ANALYZE churn_touched")
                for table in Self.tables where table != StoredTables.subscriptionRenewals.name {
                    try writer.execute(
                        """
                        DELETE FROM \(table) x USING churn_touched t
                        WHERE x.environment = $1 AND x.original_transaction_id = t.original_transaction_id
                        """,
                        [environment]
                    )
                }
                try removeTouchedRenewals(environment: environment)
            }
            let counts = try rebuildTouched(environment: environment, everything: full)
            for definition in droppedIndexes { try writer.execute(definition) }
            try addRenewals(counts.renewals, environment: environment)
            FaultPoint.reach("analyze.episodes-copied")
            summary.graceEndsChanged = try inferGraceEnds(environment: environment)
            let customers = CustomerLinks(connection: writer)
            summary.linkedSubscriptions =
                full
                ? try customers.store(environment: environment) : try customers.storeTouched(environment: environment)
            if full { try writer.execute("ANALYZE \(Self.joinedAfterwards.joined(separator: ", "))") }
            summary.notificationsRead = counts.notifications
            summary.episodesWritten = counts.episodes
            if full { summary.subscriptionsRebuilt = counts.subscriptions }
            try writer.execute(
                """
                INSERT INTO analyzed_files (environment, source_file_id)
                SELECT $1, unnest($2) ON CONFLICT DO NOTHING
                """,
                [environment, fileList]
            )
            try writer.execute(
                "UPDATE subscription_checks SET proof_analyzed = true WHERE id = ANY($1)", [proofList])
        }
        summary.seconds = Date().timeIntervalSince(started)
        logger.info(
            "episodes rebuilt",
            metadata: [
                "analyze.environment": "\(environment)", "analyze.files": .stringConvertible(summary.filesAnalyzed),
                "analyze.subscriptions": .stringConvertible(summary.subscriptionsRebuilt),
                "analyze.notifications": .stringConvertible(summary.notificationsRead),
                "analyze.episodes": .stringConvertible(summary.episodesWritten),
                "analyze.grace_ends_changed": .stringConvertible(summary.graceEndsChanged),
            ]
        )
        return summary
    }

    private static let tables = StoredTables.episodeTables.map(\.name)

    /// The tables a full rebuild refills that later statements join a few keys to: the next incremental analysis
    /// looks up the touched subscriptions' keys in the links and their customers and removes their rows from the
    /// per-subscription tables and the monthly renewals, and a report's returns probe the purchases. A full rebuild
    /// analyzes them before it commits, as PostgreSQL's "Populating a Database" advises after a bulk load: truncated
    /// and refilled, they have no statistics until autovacuum comes (a minute later at best, and not while a command
    /// holds them), and without statistics the planner read every link for each touched key: the 1 % nightly after a
    /// full rebuild at 1 M notifications took 31 s in one `INSERT` instead of 0.3 s. (The episodes, whose `ANALYZE`
    /// takes 0.3 s at 1 M, are read whole or by their key, and the nightly's `DELETE` of the touched ones took 25 ms
    /// without statistics: autovacuum analyzes them.)
    static let joinedAfterwards = [
        StoredTables.subscriptionLinks.name, StoredTables.subscriptionCustomers.name,
        StoredTables.subscriptionPurchases.name, StoredTables.subscriptionAnalysis.name,
        StoredTables.subscriptionRenewals.name, StoredTables.renewalMonths.name,
    ]

    /// Removes the environment's stored rows for a full rebuild, in the writer's transaction.
    ///
    /// When the tables hold no other environment, they are truncated: the new rows then go into fresh tables and
    /// indexes instead of beside as many deleted ones with the same keys, which makes the COPYs about three times
    /// faster. Readers wait for the commit (TRUNCATE locks the tables), as they would for any full rebuild.
    /// - Returns: the definitions of the indexes dropped with the truncation (``dropSecondaryIndexes(of:)``), to
    ///   build again once the rows are in.
    private func clearTables(environment: String) throws -> [String] {
        var othersStored = false
        for table in Self.tables {
            // Each table's index begins with the environment: the two ranges beside it are read off the index,
            // where `environment <> $1` scanned the whole table (0.4–0.6 s a table at 10 M notifications).
            let other = try writer.execute(
                """
                SELECT EXISTS (SELECT FROM \(table) WHERE environment < $1)
                    OR EXISTS (SELECT FROM \(table) WHERE environment > $1)
                """,
                [environment])
            othersStored = othersStored || other.scalar == "t"
        }
        let tables = Self.tables + [StoredTables.renewalMonths.name]
        if othersStored {
            for table in tables {
                try writer.execute("DELETE FROM \(table) WHERE environment = $1", [environment])
            }
            return []
        }
        try writer.execute("TRUNCATE \(tables.joined(separator: ", "))")
        return try dropSecondaryIndexes(of: Self.tables)
    }

    /// Drops the indexes of `tables` that enforce no key, on the tables that are not partitioned, in the writer's
    /// transaction, and returns their definitions: a full rebuild into truncated tables then builds each such index
    /// once from the rows in it, instead of inserting every row into it, as PostgreSQL's "Populating a Database"
    /// advises (about a quarter of those tables' COPY time at 1 M notifications). A crash before the commit keeps
    /// the indexes, as it keeps the rows.
    private func dropSecondaryIndexes(of tables: [String]) throws -> [String] {
        let indexes = try writer.execute(
            """
            SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
            FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
            WHERE i.indrelid = ANY($1) AND NOT i.indisunique AND t.relkind = 'r'
              AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid)
            ORDER BY 1
            """,
            [PGArray.regclasses(tables)])
        let (name, definition) = (try indexes.field("name"), try indexes.field("definition"))
        var definitions: [String] = []
        for row in indexes.rows {
            try writer.execute("DROP INDEX \(try row.decode(String.self, name))")
            definitions.append(try row.decode(String.self, definition))
        }
        return definitions
    }

    /// Deletes the touched subscriptions' renewal rows and takes them off the monthly totals (`renewal_months`),
    /// in the writer's transaction.
    private func removeTouchedRenewals(environment: String) throws {
        try writer.execute(
            """
            WITH removed AS (
                DELETE FROM subscription_renewals x USING churn_touched t
                WHERE x.environment = $1 AND x.original_transaction_id = t.original_transaction_id
                RETURNING x.month, x.renewals
            ), by_month AS (
                SELECT month, sum(renewals) AS renewals FROM removed GROUP BY month
            )
            UPDATE renewal_months m SET renewals = m.renewals - b.renewals
            FROM by_month b WHERE m.environment = $1 AND m.month = b.month
            """,
            [environment]
        )
    }

    /// Adds the rebuilt subscriptions' renewals to the monthly totals (`renewal_months`), and drops the months left
    /// with none, so the totals always equal the sums of `subscription_renewals` by month.
    private func addRenewals(_ totals: PeriodCounts, environment: String) throws {
        let months = PGArray.texts(totals.entries.map(\.period.description))
        let counts = PGArray.bigints(totals.entries.map { Int64($0.count) })
        try writer.execute(
            """
            INSERT INTO renewal_months (environment, month, renewals)
            SELECT $1, month, renewals FROM unnest($2, $3) AS u (month, renewals)
            ON CONFLICT (environment, month) DO UPDATE SET renewals = renewal_months.renewals + excluded.renewals
            """,
            [environment, months, counts]
        )
        try writer.execute("DELETE FROM renewal_months WHERE environment = $1 AND renewals = 0", [environment])
    }

    /// Streams the touched subscriptions' notifications (or all, for a full rebuild) through the episode builder
    /// into the tables.
    ///
    /// The renewal rows, the most numerous, stream into the writer while the reader is still scanning; episodes and
    /// data-quality rows wait in spools (memory, then a temporary file) and follow once the scan is done.
    private func rebuildTouched(
        environment: String,
        everything: Bool
    ) throws -> (notifications: Int, episodes: Int, subscriptions: Int, renewals: PeriodCounts) {
        let builder = EpisodeBuilder(
            options: .init(
                environment: environment, asOf: Self.openEnded,
                provenRecoveries: try ProvenRecovery.stored(environment: environment, connection: reader)))
        var stream = EpisodeStream(builder: builder)
        var rows = EpisodeRows(environment: environment)
        var notifications = 0
        var subscriptions = 0
        try writer.copyIn(
            StoredTables.subscriptionRenewals.copyFromStdin(binary: true)
        ) { renewals in
            notifications = try NotificationEventReader(connection: reader).read(
                everything ? .all(asOf: nil) : .touched
            ) {
                event in
                if let result = stream.add(event) {
                    try rows.add(result, renewalsTo: &renewals)
                    subscriptions += 1
                }
            }
            if let result = stream.finish() {
                try rows.add(result, renewalsTo: &renewals)
                subscriptions += 1
            }
        }
        try writer.copyIn(StoredTables.billingEpisodes.copyFromStdin(binary: true)) { out in
            try rows.episodes.send(to: &out)
        }
        try writer.copyIn(StoredTables.subscriptionAnalysis.copyFromStdin(binary: true)) { out in
            try rows.analysis.send(to: &out)
        }
        try writer.copyIn(StoredTables.subscriptionLinks.copyFromStdin(binary: true)) { out in
            try rows.links.send(to: &out)
        }
        try writer.copyIn(StoredTables.subscriptionPurchases.copyFromStdin(binary: true)) { out in
            try rows.purchases.send(to: &out)
        }
        return (notifications, rows.episodeCount, subscriptions, rows.renewalTotals)
    }
}
