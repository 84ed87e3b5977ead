import Foundation
import Logging
import PGClient

/// Applies the numbered SQL files of `sql/` in order, each in its own transaction, and records them; then
/// `sql/views.sql`, the views' one definition, whenever its text differs from the text last applied.
///
/// The files are compiled into the binary, so `churn` finds them from any working directory.
///
/// `views.sql` is repeatable, as Flyway's `R__` files are: it runs again after a release changes it, and is recorded
/// with its text in `schema_repeatables`. It makes every view with CREATE OR REPLACE, so views of a user's own over
/// them keep working; a change that needs a view dropped or a column renamed goes in a numbered migration first.
///
/// A new schema gets the ``SchemaLayout`` asked for (by the initializer, else by `CHURN_SCHEMA_LAYOUT`, else plain):
/// for the partitioned layout, `sql/layouts/partitioned.sql` creates the partitioned tables in the transaction of the
/// first migration, before it, and the numbered migrations then add everything else to them as to plain tables.
/// An existing schema keeps the layout recorded in `schema_layout` (plain for one made before 008).
package struct Migrator {
    /// One schema change: its number, name and SQL text.
    package struct Migration: Sendable {
        package var version: Int
        package var name: String
        package var sql: String
    }

    /// Every migration, in order. A test checks this list against the files in `sql/`.
    /// (SwiftPM names an embedded file `_01_initial_sql` for `001_initial.sql`: it replaces the leading digit.)
    package static let all: [Migration] = [
        Migration(
            version: 1, name: "001_initial.sql", sql: String(decoding: PackageResources._01_initial_sql, as: UTF8.self)),
        Migration(
            version: 2, name: "002_billing_episodes.sql",
            sql: String(decoding: PackageResources._02_billing_episodes_sql, as: UTF8.self)
        ),
        Migration(
            version: 3, name: "003_views.sql", sql: String(decoding: PackageResources._03_views_sql, as: UTF8.self)
        ),
        Migration(
            version: 4, name: "004_metrics_v2.sql",
            sql: String(decoding: PackageResources._04_metrics_v2_sql, as: UTF8.self)
        ),
        Migration(
            version: 5, name: "005_database_identity.sql",
            sql: String(decoding: PackageResources._05_database_identity_sql, as: UTF8.self)
        ),
        Migration(
            version: 6, name: "006_daily_recovery_names.sql",
            sql: String(decoding: PackageResources._06_daily_recovery_names_sql, as: UTF8.self)
        ),
        Migration(
            version: 7, name: "007_fetch_checkpoints.sql",
            sql: String(decoding: PackageResources._07_fetch_checkpoints_sql, as: UTF8.self)
        ),
        Migration(
            version: 8, name: "008_subscription_keys.sql",
            sql: String(decoding: PackageResources._08_subscription_keys_sql, as: UTF8.self)
        ),
        Migration(
            version: 9, name: "009_file_references.sql",
            sql: String(decoding: PackageResources._09_file_references_sql, as: UTF8.self)
        ),
        Migration(
            version: 10, name: "010_copies_and_retries.sql",
            sql: String(decoding: PackageResources._10_copies_and_retries_sql, as: UTF8.self)
        ),
        Migration(
            version: 11, name: "011_app_account_tokens.sql",
            sql: String(decoding: PackageResources._11_app_account_tokens_sql, as: UTF8.self)
        ),
        Migration(
            version: 12, name: "012_stored_grace_days.sql",
            sql: String(decoding: PackageResources._12_stored_grace_days_sql, as: UTF8.self)
        ),
        Migration(
            version: 13, name: "013_signed_payload_hashes.sql",
            sql: String(decoding: PackageResources._13_signed_payload_hashes_sql, as: UTF8.self)
        ),
        Migration(
            version: 14, name: "014_stored_retry_window.sql",
            sql: String(decoding: PackageResources._14_stored_retry_window_sql, as: UTF8.self)
        ),
        Migration(
            version: 15, name: "015_customers.sql",
            sql: String(decoding: PackageResources._15_customers_sql, as: UTF8.self)
        ),
        Migration(
            version: 16, name: "016_subscription_checks.sql",
            sql: String(decoding: PackageResources._16_subscription_checks_sql, as: UTF8.self)
        ),
        Migration(
            version: 17, name: "017_commitment_plans.sql",
            sql: String(decoding: PackageResources._17_commitment_plans_sql, as: UTF8.self)
        ),
        Migration(
            version: 18, name: "018_subscription_check_errors.sql",
            sql: String(decoding: PackageResources._18_subscription_check_errors_sql, as: UTF8.self)
        ),
        Migration(
            version: 19, name: "019_transaction_history_proofs.sql",
            sql: String(decoding: PackageResources._19_transaction_history_proofs_sql, as: UTF8.self)
        ),
        Migration(
            version: 20, name: "020_renewal_months.sql",
            sql: String(decoding: PackageResources._20_renewal_months_sql, as: UTF8.self)
        ),
        Migration(
            version: 21, name: "021_link_lookup.sql",
            sql: String(decoding: PackageResources._21_link_lookup_sql, as: UTF8.self)
        ),
        Migration(
            version: 22, name: "022_message_events.sql",
            sql: String(decoding: PackageResources._22_message_events_sql, as: UTF8.self)
        ),
        Migration(
            version: 23, name: "023_nightly_seen.sql",
            sql: String(decoding: PackageResources._23_nightly_seen_sql, as: UTF8.self)
        ),
    ]

    /// The versions from `first` to the latest, in order: what migrating a schema made up to `first − 1` applies.
    package static func versions(from first: Int) -> [Int] {
        all.map(\.version).filter { $0 >= first }
    }

    /// `sql/views.sql`: every view, applied after the numbered migrations whenever its text changes.
    package static let views = Migration(
        version: 0, name: "views.sql", sql: String(decoding: PackageResources.views_sql, as: UTF8.self)
    )

    /// The first version whose schema can have a layout other than plain (it records the layout, `schema_layout`).
    package static let layoutVersion = 8

    /// `sql/layouts/partitioned.sql`: the partitioned tables, made before the first migration of a new schema.
    package static let partitionedLayout = Migration(
        version: 0, name: "layouts/partitioned.sql",
        sql: String(decoding: PackageResources.partitioned_sql, as: UTF8.self)
    )

    let logger: Logger
    /// The layout asked for by the caller; nil to take `CHURN_SCHEMA_LAYOUT`'s (or plain).
    let requestedLayout: SchemaLayout?
    let environment: [String: String]
    /// The views' script: ``views`` but in the tests of a changed script.
    let viewsScript: Migration

    /// - Parameters:
    ///   - layout: the layout of a schema this migrator creates. An existing schema with another layout makes
    ///     ``migrate(_:through:)`` throw. Nil: the layout `CHURN_SCHEMA_LAYOUT` names for new schemas, else plain;
    ///     an existing schema then keeps its own.
    ///   - environment: where `CHURN_SCHEMA_LAYOUT` and `CHURN_SCHEMA_PARTITIONS` are read.
    ///   - views: the views' script to apply after the migrations (``views``, the one compiled in).
    package init(
        logger: Logger,
        layout: SchemaLayout? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        views: Migration = Migrator.views
    ) {
        self.logger = logger
        self.requestedLayout = layout
        self.environment = environment
        self.viewsScript = views
    }

    /// Brings the schema of the connection's `search_path` up to date.
    ///
    /// Concurrent callers serialize on an advisory lock; each migration commits with its record, and the views'
    /// script with its own.
    /// - Parameter last: the last version to apply (the schema of an older release, for upgrade tests); nil for all.
    ///   A schema made only up to a version before ``layoutVersion`` is plain, as that release's schemas were. The
    ///   views' script runs only when the schema is brought to the latest version: it reads the latest tables.
    /// - Returns: the versions applied by this call (empty when the numbered migrations were current, even when the
    ///   views' script ran).
    /// - Throws: ``SchemaLayoutError`` when the layout setting is not valid, or when a layout was passed to the
    ///   initializer and the existing schema has another; ``PGError`` for the database's errors.
    @discardableResult
    package func migrate(_ connection: PGConnection, through last: Int? = nil) throws -> [Int] {
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.migrate, on: connection)
        try connection.execute("SELECT pg_advisory_lock($1)", [lock])
        defer { _ = try? connection.advisoryUnlock(lock) }
        // A current schema is only read, so that a read-only connection (a replica) can use it.
        let recorded = try appliedVersions(connection)
        let applied = recorded ?? []
        let isCurrent = Self.all.allSatisfy { applied.contains($0.version) || $0.version > last ?? Int.max }
        let toLatest = Self.all.allSatisfy { $0.version <= last ?? Int.max }
        let viewsCurrent = try !toLatest || viewsAreCurrent(connection)
        if recorded != nil, isCurrent, viewsCurrent {
            // Still refuses a layout other than the schema's.
            _ = try layoutToCreate(connection, applied: applied, through: last ?? Int.max)
            return []
        }
        if try connection.isReadOnly() {
            throw PGError(
                kind: .statementFailed,
                message:
                    "the schema needs migrating and this connection is read-only (a replica?): run `churn migrate` "
                    + "against the primary first")
        }
        if recorded == nil {
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version     integer PRIMARY KEY,
                    name        text NOT NULL,
                    applied_at  timestamptz NOT NULL DEFAULT now()
                )
                """
            )
        }
        let newLayout = try layoutToCreate(connection, applied: applied, through: last ?? Int.max)
        var newlyApplied: [Int] = []
        for migration in Self.all where !applied.contains(migration.version) && migration.version <= last ?? Int.max {
            try connection.withTransaction {
                if migration.version == 1, case .partitioned(let partitions) = newLayout {
                    try connection.execute("SELECT set_config('churn.partitions', \(bind: String(partitions)), true)")
                    try connection.executeScript(Self.partitionedLayout.sql, name: Self.partitionedLayout.name)
                    logger.info("created the partitioned tables", metadata: ["migration.partitions": "\(partitions)"])
                }
                try connection.executeScript(migration.sql, name: migration.name)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                    [migration.version, migration.name]
                )
            }
            logger.info("applied migration", metadata: ["migration.name": "\(migration.name)"])
            newlyApplied.append(migration.version)
        }
        if !viewsCurrent {
            try connection.withTransaction {
                try connection.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_repeatables (
                        name        text PRIMARY KEY,
                        sql         text NOT NULL,
                        applied_at  timestamptz NOT NULL DEFAULT now()
                    )
                    """
                )
                try connection.executeScript(viewsScript.sql, name: viewsScript.name)
                try connection.execute(
                    """
                    INSERT INTO schema_repeatables (name, sql) VALUES (\(bind: viewsScript.name), \(bind: viewsScript.sql))
                    ON CONFLICT (name) DO UPDATE SET sql = excluded.sql, applied_at = now()
                    """
                )
            }
            logger.info("applied the views", metadata: ["migration.name": "\(viewsScript.name)"])
        }
        return newlyApplied
    }

    /// Whether `schema_repeatables` records the views' script with the text this migrator applies.
    private func viewsAreCurrent(_ connection: PGConnection) throws -> Bool {
        guard try connection.execute("SELECT to_regclass('schema_repeatables') IS NOT NULL").scalar == "t" else {
            return false
        }
        let recorded = try connection.execute(
            "SELECT sql = \(bind: viewsScript.sql) FROM schema_repeatables WHERE name = \(bind: viewsScript.name)")
        return recorded.scalar == "t"
    }

    /// The versions `schema_migrations` records; nil when the schema has no such table yet.
    private func appliedVersions(_ connection: PGConnection) throws -> Set<Int>? {
        guard try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").scalar == "t" else {
            return nil
        }
        let versions = try connection.execute("SELECT version FROM schema_migrations")
        let version = try versions.field("version")
        return Set(try versions.rows.map { try $0.decode(Int.self, version) })
    }

    /// The layout a call to ``migrate(_:through:)`` makes the schema with: nil when it makes no new schema (or a plain
    /// one, which the numbered migrations make alone).
    private func layoutToCreate(
        _ connection: PGConnection,
        applied: Set<Int>,
        through last: Int
    ) throws -> SchemaLayout? {
        let requested = try requestedLayout ?? SchemaLayout.requested(by: environment) ?? .plain
        // A schema with migrations is plain unless it recorded otherwise.
        let existing = try layout(connection) ?? (applied.isEmpty ? nil : .plain)
        if let existing {
            if let asked = requestedLayout, asked != existing {
                throw SchemaLayoutError.layoutKept(recorded: existing, requested: asked)
            }
            if requested != existing {
                logger.debug(
                    "the schema keeps its layout",
                    metadata: ["migration.layout": "\(existing)", "migration.requested": "\(requested)"]
                )
            }
            return nil
        }
        guard last >= Self.layoutVersion, case .partitioned = requested else { return nil }
        return requested
    }

    /// The layout recorded in the schema (`schema_layout`), or nil before migration 008 and before the first.
    package func layout(_ connection: PGConnection) throws -> SchemaLayout? {
        let exists = try connection.execute("SELECT to_regclass('schema_layout') IS NOT NULL").scalar == "t"
        guard exists else { return nil }
        let result = try connection.execute("SELECT layout, partitions FROM schema_layout")
        guard let row = result.rows.first else { return nil }
        return try SchemaLayout(
            name: try row.decode(String.self, try result.field("layout")),
            partitions: try row.decode(Int?.self, try result.field("partitions")))
    }

    /// The latest migration version recorded in the schema, or nil before the first migration.
    package func currentVersion(_ connection: PGConnection) throws -> Int? {
        let exists = try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").scalar == "t"
        guard exists else { return nil }
        return try connection.execute("SELECT max(version) FROM schema_migrations").scalar.flatMap { Int($0) }
    }
}
