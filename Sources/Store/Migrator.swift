import Logging
import PGClient

/// Applies the numbered SQL files of `sql/` in order, each in its own transaction, and records them.
///
/// The files are compiled into the binary, so `churn` finds them from any working directory.
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
        Migration(version: 1, name: "001_initial.sql", sql: String(decoding: PackageResources._01_initial_sql, as: UTF8.self)),
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
    ]

    let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// Brings the schema of the connection's `search_path` up to date.
    ///
    /// Concurrent callers serialize on an advisory lock; each migration commits with its record.
    /// - Parameter last: the last version to apply (the schema of an older release, for upgrade tests); nil for all.
    /// - Returns: the versions applied by this call (empty when the schema was current).
    @discardableResult
    package func migrate(_ connection: PGConnection, through last: Int? = nil) throws -> [Int] {
        let lock = try AdvisoryLockKey.scoped(AdvisoryLockKey.migrate, on: connection)
        try connection.execute("SELECT pg_advisory_lock($1::bigint)", [String(lock)])
        defer { _ = try? connection.advisoryUnlock(lock) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version     integer PRIMARY KEY,
                name        text NOT NULL,
                applied_at  timestamptz NOT NULL DEFAULT now()
            )
            """
        )
        let versions = try connection.execute("SELECT version FROM schema_migrations").rows
        let applied = Set(versions.compactMap { row in row.first.flatMap { $0 }.flatMap { Int($0) } })
        var newlyApplied: [Int] = []
        for migration in Self.all where !applied.contains(migration.version) && migration.version <= last ?? Int.max {
            try connection.withTransaction {
                try connection.executeScript(migration.sql, name: migration.name)
                try connection.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1::integer, $2)",
                    [String(migration.version), migration.name]
                )
            }
            logger.info("applied migration", metadata: ["migration.name": "\(migration.name)"])
            newlyApplied.append(migration.version)
        }
        return newlyApplied
    }

    /// The latest migration version recorded in the schema, or nil before the first migration.
    package func currentVersion(_ connection: PGConnection) throws -> Int? {
        let exists = try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").scalar == "t"
        guard exists else { return nil }
        return try connection.execute("SELECT max(version) FROM schema_migrations").scalar.flatMap { Int($0) }
    }
}
