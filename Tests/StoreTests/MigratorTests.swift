import Foundation
import Logging
import PGClient
import Store
import Synchronization
import TestSupport
import Testing

@Suite struct MigratorTests {
    @Test func everySQLFileIsCompiledInInOrder() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sql")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true }.sorted()
        #expect(Migrator.all.map(\.name) == files)
        // Each version is its file's number; numbers rise, and one set aside for other work may be missing.
        #expect(Migrator.all.map(\.version) == files.compactMap { Int($0.prefix(3)) })
        #expect(Migrator.all.map(\.version) == Migrator.all.map(\.version).sorted())
        #expect(Set(Migrator.all.map(\.version)).count == files.count)
        for migration in Migrator.all {
            let onDisk = try String(contentsOf: directory.appendingPathComponent(migration.name), encoding: .utf8)
            #expect(migration.sql == onDisk, "\(migration.name) differs from the compiled-in copy")
        }
        for script in [Migrator.partitionedLayout, Migrator.views] {
            let onDisk = try String(contentsOf: directory.appendingPathComponent(script.name), encoding: .utf8)
            #expect(script.sql == onDisk, "\(script.name) differs from the compiled-in copy")
        }
    }

    /// A view is defined in views.sql alone: the numbered migrations that made views before it stay as they ran, and
    /// no later one makes a view again.
    @Test func onlyTheMigrationsBeforeViewsSQLMakeAView() throws {
        let directory = Repository.root.appendingPathComponent("sql")
        let before = [
            "003_views.sql", "004_metrics_v2.sql", "011_app_account_tokens.sql", "012_stored_grace_days.sql",
            "014_stored_retry_window.sql", "017_commitment_plans.sql",
        ]
        let makesAView = try Regex(#"(?i)CREATE\s+(OR\s+REPLACE\s+)?VIEW"#)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true }.sorted()
        let making = try files.filter {
            try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8).contains(makesAView)
        }
        #expect(making == before, "define views in sql/views.sql, not in a numbered migration")
    }

    /// views.sql runs after the numbered migrations and again only when its text changes; a view of one's own over
    /// the views keeps working through a change, and a schema made only up to an older version gets no views.sql.
    @Test func theViewsScriptRunsAgainOnlyWhenItChanges() throws {
        let connection = try TestDatabase.makeSchema("repeatable").connect()
        let applied = "SELECT sql, applied_at::text FROM schema_repeatables WHERE name = 'views.sql'"
        #expect(try Migrator(logger: .test).migrate(connection, through: 5) == Array(1...5))
        #expect(try connection.execute("SELECT to_regclass('schema_repeatables') IS NULL").scalar == "t")

        #expect(try Migrator(logger: .test).migrate(connection) == Array(6...(Migrator.all.last?.version ?? 0)))
        let first = try connection.execute(applied).rows
        #expect(first.map { $0[0] } == [Migrator.views.sql])
        try connection.execute("CREATE VIEW my_outcomes AS SELECT outcome, count(*) AS n FROM episodes GROUP BY 1")
        #expect(try Migrator(logger: .test).migrate(connection) == [])
        #expect(try connection.execute(applied).rows == first, "the same text is not applied again")

        // A release that changes the script: it runs once, over the view of one's own.
        var changed = Migrator.views
        changed.sql += "\nCOMMENT ON VIEW daily_recovery IS 'changed';\n"
        let comment = "SELECT obj_description('daily_recovery'::regclass)"
        #expect(try Migrator(logger: .test, views: changed).migrate(connection) == [])
        #expect(try connection.execute(comment).scalar == "changed")
        #expect(try connection.execute(applied).rows.map { $0[0] } == [changed.sql])
        #expect(try connection.execute("SELECT count(*) FROM my_outcomes").scalar == "0")
        try connection.execute("COMMENT ON VIEW daily_recovery IS 'edited by hand'")
        #expect(try Migrator(logger: .test, views: changed).migrate(connection) == [])
        #expect(try connection.execute(comment).scalar == "edited by hand", "an unchanged script does not run")

        // Back to the compiled-in script.
        #expect(try Migrator(logger: .test).migrate(connection) == [])
        #expect(try connection.execute(comment).scalar?.hasPrefix("Per environment and day") == true)
    }

    @Test func migratesOnceAndRecordsEachVersion() throws {
        let schema = try TestDatabase.makeSchema("migrate")
        let connection = try schema.connect()
        let migrator = Migrator(logger: Logger.test)
        #expect(try migrator.currentVersion(connection) == nil)
        #expect(try migrator.migrate(connection) == Migrator.all.map(\.version))
        #expect(try migrator.migrate(connection) == [])
        #expect(try migrator.currentVersion(connection) == Migrator.all.last?.version)
        let tables = try connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema.name]
        ).rows.compactMap { $0[0] }
        for table in [
            "fetch_checkpoints", "load_runs", "notifications", "quarantine", "schema_migrations", "source_files",
        ] {
            #expect(tables.contains(table))
        }
    }

    /// From every older version, migrating applies exactly the versions after it, in order, and records each once.
    @Test(arguments: 0..<Migrator.all.count)
    func bringsEveryOlderVersionForward(from version: Int) throws {
        let connection = try TestDatabase.makeSchema("forward").connect()
        let migrator = Migrator(logger: Logger.test)
        let versions = Migrator.all.map(\.version)
        #expect(try migrator.migrate(connection, through: version) == Array(versions.prefix(version)))
        #expect(try migrator.currentVersion(connection) == versions.prefix(version).last)
        #expect(try migrator.migrate(connection) == Array(versions.dropFirst(version)))
        #expect(try migrator.migrate(connection) == [])
        let recorded = try connection.execute(
            "SELECT version::text, name FROM schema_migrations ORDER BY schema_migrations.version"
        ).rows
        #expect(recorded == Migrator.all.map { [String($0.version), $0.name] })
    }

    /// Migrators started at the same moment on one schema take turns: the first applies everything, the others
    /// find the schema current.
    @Test func concurrentMigratorsApplyEachVersionOnce() throws {
        let schema = try TestDatabase.makeSchema("concurrent")
        let count = 4
        let results = Mutex<[Result<[Int], any Error>]>([])
        let connected = DispatchGroup()
        let finished = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            connected.enter()
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                let connection = Result { try schema.connect() }
                connected.leave()
                go.wait()
                let result = Result { try Migrator(logger: Logger.test).migrate(try connection.get()) }
                results.withLock { $0.append(result) }
            }
        }
        connected.wait()
        for _ in 0..<count { go.signal() }
        finished.wait()
        let applied = try results.withLock { try $0.map { try $0.get() } }
        let expected = Array(repeating: [], count: count - 1) + [Migrator.all.map(\.version)]
        #expect(applied.sorted { $0.count < $1.count } == expected)
        let recorded = try schema.connect().execute("SELECT count(*), count(DISTINCT version) FROM schema_migrations")
        #expect(recorded.rows == [[String(Migrator.all.count), String(Migrator.all.count)]])
    }
}

/// 004 upgrades a database of the previous schema in place, with its rows.
@Suite struct MetricsV2MigrationTests {
    @Test func upgradesInPlaceBackfillsTheRenewalCurrencyAndForcesARebuild() throws {
        let schema = try TestDatabase.makeSchema("upgrade")
        let connection = try schema.connect()
        let migrator = Migrator(logger: Logger.test)
        #expect(try migrator.migrate(connection, through: 3) == [1, 2, 3])
        #expect(try migrator.currentVersion(connection) == 3)

        try connection.execute("INSERT INTO load_runs (id, command, verified) VALUES (1, 'load', true)")
        try connection.execute(
            """
            INSERT INTO source_files (id, load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES (1, 1, 'export.jsonl', 10, 'x', 4, 4, 0, 0)
            """
        )
        let notification = """
            INSERT INTO notifications (notification_uuid, notification_type, signed_date, payload, verified,
                                       source_file_id, load_run_id)
            VALUES ($1::uuid, 'DID_FAIL_TO_RENEW', '2024-03-10Z', $2::jsonb, true, 1, 1)
            """
        let renewalInfos = [
            #"{"currency":"JPY","renewalPrice":990}"#, #"{"renewalPrice":990}"#, #""not.a.token""#, #"{"currency":7}"#,
        ]
        for (index, renewalInfo) in renewalInfos.enumerated() {
            let uuid = "00000000-0000-4000-8000-00000000000\(index + 1)"
            try connection.execute(notification, [uuid, #"{"data":{"signedRenewalInfo":"# + renewalInfo + "}}"])
        }
        let episode = """
            INSERT INTO billing_episodes (environment, original_transaction_id, sequence, start_at, has_grace, end_at,
                outcome, saved_in_grace, cohort_month, cohort_week, trial_conversion, opening_notification_uuid)
            VALUES ('Production', $1, 1, '2024-03-01Z', false, $2::timestamptz, $3, false, '2024-03', '2024-W09', false,
                    '00000000-0000-4000-8000-000000000001')
            """
        try connection.execute(episode, ["A", "2024-03-05Z", "recovered"])
        try connection.execute(episode, ["B", PGNull(), "open"])
        try connection.execute("INSERT INTO subscription_analysis VALUES ('Production', 'A', 0, 0, 1, 0, 0)")
        try connection.execute("INSERT INTO analyzed_files (environment, source_file_id) VALUES ('Production', 1)")

        #expect(try migrator.migrate(connection) == Migrator.all.map(\.version).filter { $0 >= 4 })
        // The renewal info's currency, where the payload holds it as text.
        let currencies = try connection.execute(
            "SELECT notification_uuid::text, renewal_currency FROM notifications ORDER BY 1"
        ).rows
        #expect(currencies.map { $0[1] } == ["JPY", nil, nil, nil])
        // Stored v1 recoveries were retries; the new checks start at 0; nothing counts as analyzed any more.
        let episodes = try connection.execute(
            """
            SELECT original_transaction_id, outcome, recovered_by, end_inferred::text, grace_end_inferred::text
            FROM billing_episodes ORDER BY 1
            """
        ).rows
        #expect(episodes == [["A", "recovered", "retry", "false", "false"], ["B", "open", nil, "false", "false"]])
        #expect(
            try connection.execute("SELECT stale_failure_notice, late_failure_notice FROM subscription_analysis").rows
                == [["0", "0"]])
        #expect(try connection.execute("SELECT count(*) FROM analyzed_files").scalar == "0")
        // recovered_by is NULL exactly when the episode is not recovered, and only retry or new_purchase.
        for (subscription, recoveredBy) in [("A", nil), ("B", "retry"), ("A", "refund")] {
            #expect(throws: PGError.self) {
                try connection.execute(
                    "UPDATE billing_episodes SET recovered_by = $2 WHERE original_transaction_id = $1",
                    [subscription, recoveredBy]
                )
            }
        }
        // The views read the upgraded table.
        #expect(
            try connection.execute("SELECT outcome, recovered_by FROM episodes ORDER BY original_transaction_id").rows
                == [["recovered", "retry"], ["open", nil]])

        // Running the migration's text again changes nothing.
        let migration = try #require(Migrator.all.first { $0.version == 4 })
        try connection.withTransaction { try connection.executeScript(migration.sql, name: migration.name) }
        let backfilled = "SELECT count(*) FROM notifications WHERE renewal_currency IS NOT NULL"
        #expect(try connection.execute(backfilled).scalar == "1")
    }
}

/// 006 renames daily_recovery's daily count in place: a view of one's own over it keeps working.
@Suite struct DailyRecoveryNamesMigrationTests {
    @Test func renamesTheDailyCountAndKeepsViewsOverIt() throws {
        let schema = try TestDatabase.makeSchema("dailynames")
        let connection = try schema.connect()
        let migrator = Migrator(logger: Logger.test)
        #expect(try migrator.migrate(connection, through: 5) == [1, 2, 3, 4, 5])
        try connection.execute("CREATE VIEW my_days AS SELECT day, recovered AS daily FROM daily_recovery")
        #expect(try migrator.migrate(connection).first == 6)
        #expect(
            try connection.columns(of: "daily_recovery")
                == ["environment", "day", "at_risk", "recovered_on_day", "recovered_cumulative"])
        #expect(try connection.execute("SELECT count(*) FROM my_days").scalar == "0")
        let comment = try connection.execute("SELECT col_description('daily_recovery'::regclass, 4)").scalar
        #expect(comment?.contains("that day alone") == true)
        // Again: nothing to rename, nothing fails.
        let migration = try #require(Migrator.all.first { $0.name == "006_daily_recovery_names.sql" })
        try connection.withTransaction { try connection.executeScript(migration.sql, name: migration.name) }
    }
}

/// 008 puts original_transaction_id into the key of notifications in place: a notification without a subscription
/// gets '', the primary key becomes (original_transaction_id, notification_uuid), and the schema is recorded plain.
@Suite struct SubscriptionKeysMigrationTests {
    @Test func upgradesTheKeysInPlaceAndKeepsEveryRow() throws {
        let schema = try TestDatabase.makeSchema("keys")
        let connection = try schema.connect()
        let migrator = Migrator(logger: Logger.test)
        #expect(try migrator.migrate(connection, through: 7) == Array(1...7))
        try connection.execute("INSERT INTO load_runs (id, command, verified) VALUES (1, 'load', true)")
        try connection.execute(
            """
            INSERT INTO source_files (id, load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES (1, 1, 'export.jsonl', 10, 'x', 3, 3, 0, 0)
            """
        )
        let notification = """
            INSERT INTO notifications (notification_uuid, notification_type, signed_date, original_transaction_id,
                                       payload, verified, source_file_id, load_run_id)
            VALUES ($1::uuid, $2, '2024-03-10Z', $3, '{}', true, 1, 1)
            """
        let rows: [[String?]] = [
            ["00000000-0000-4000-8000-000000000001", "DID_RENEW", "A"],
            ["00000000-0000-4000-8000-000000000002", "TEST", nil],
            ["00000000-0000-4000-8000-000000000003", "DID_FAIL_TO_RENEW", "A"],
        ]
        for row in rows { try connection.execute(notification, row) }
        let primaryKey = """
            SELECT pg_get_constraintdef(oid) FROM pg_constraint
            WHERE conrelid = 'notifications'::regclass AND contype = 'p'
            """
        #expect(try connection.execute(primaryKey).scalar == "PRIMARY KEY (notification_uuid)")

        #expect(try migrator.migrate(connection) == Migrator.versions(from: 8))
        let stored = try connection.execute(
            "SELECT notification_uuid::text, notification_type, original_transaction_id FROM notifications ORDER BY 1"
        ).rows
        #expect(stored == rows.map { [$0[0], $0[1], $0[2] ?? ""] })
        #expect(try connection.execute(primaryKey).scalar == "PRIMARY KEY (original_transaction_id, notification_uuid)")
        #expect(try connection.execute("SELECT layout FROM schema_layout").scalar == "plain")
        let references = try connection.execute(
            """
            SELECT conname FROM pg_constraint WHERE conrelid = 'notifications'::regclass AND contype = 'f' ORDER BY 1
            """
        ).rows
        #expect(references == [["notifications_source_file_fkey"]])
        // A notification without a subscription gets '' by default; NULL is refused, and so is a key stored twice.
        try connection.execute(
            """
            INSERT INTO notifications (notification_uuid, notification_type, signed_date, payload, verified,
                                       source_file_id, load_run_id)
            VALUES ('00000000-0000-4000-8000-000000000004', 'TEST', '2024-03-11Z', '{}', true, 1, 1)
            """
        )
        #expect(
            try connection.execute(
                "SELECT original_transaction_id FROM notifications WHERE notification_type = 'TEST' ORDER BY 1"
            ).rows == [[""], [""]])
        #expect(throws: PGError.self) {
            try connection.execute(notification, ["00000000-0000-4000-8000-000000000005", "TEST", PGNull()])
        }
        let error = try #require(throws: PGError.self) { try connection.execute(notification, rows[0]) }
        #expect(error.sqlState == "23505")

        // Running the migration's text again changes nothing.
        let migration = try #require(Migrator.all.first { $0.version == 8 })
        try connection.withTransaction { try connection.executeScript(migration.sql, name: migration.name) }
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "4")
        #expect(try connection.execute("SELECT count(*) FROM schema_layout").scalar == "1")
    }
}

/// 009 replaces the references of notifications to source_files and to load_runs by one to source_files
/// (id, load_run_id): a notification's file must exist and belong to the notification's run, and every notification
/// has a file.
@Suite struct FileReferencesMigrationTests {
    private static let notification = """
        INSERT INTO notifications (notification_uuid, notification_type, signed_date, original_transaction_id,
                                   payload, verified, source_file_id, load_run_id)
        VALUES ($1::uuid, 'DID_RENEW', '2024-03-10Z', 'A', '{}', true, $2::bigint, $3::bigint)
        """

    /// A schema at 008 with two runs, a file of each and a notification of each file.
    private static func schemaAt8(_ name: String) throws -> PGConnection {
        let connection = try TestDatabase.makeSchema(name).connect()
        #expect(try Migrator(logger: Logger.test).migrate(connection, through: 8) == Array(1...8))
        for run in 1...2 {
            try connection.execute(
                "INSERT INTO load_runs (id, command, verified) VALUES ($1::bigint, 'load', true)", [String(run)]
            )
            try connection.execute(
                """
                INSERT INTO source_files (id, load_run_id, path, size_bytes, sha256, records, loaded, duplicates,
                                          rejected)
                VALUES ($1::bigint, $1::bigint, 'export.jsonl', 10, 'x', 1, 1, 0, 0)
                """,
                [String(run)]
            )
            let uuid = "00000000-0000-4000-8000-00000000000\(run)"
            try connection.execute(notification, [uuid, String(run), String(run)])
        }
        return connection
    }

    @Test func oneReferenceChecksTheFileAndItsRun() throws {
        let connection = try Self.schemaAt8("filerefs")
        #expect(try Migrator(logger: Logger.test).migrate(connection) == Migrator.versions(from: 9))
        let references = try connection.execute(
            """
            SELECT pg_get_constraintdef(oid) FROM pg_constraint
            WHERE conrelid = 'notifications'::regclass AND contype = 'f'
            """
        ).rows
        #expect(references == [["FOREIGN KEY (source_file_id, load_run_id) REFERENCES source_files(id, load_run_id)"]])
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "2")

        func refusal(_ file: String?, _ run: String) throws -> String? {
            let error = try #require(throws: PGError.self) {
                try connection.execute(Self.notification, ["00000000-0000-4000-8000-000000000009", file, run])
            }
            return error.sqlState
        }
        #expect(try refusal("1", "2") == "23503", "a file of another run")
        #expect(try refusal("3", "1") == "23503", "a file that does not exist")
        #expect(try refusal(nil, "1") == "23502", "no file")
        #expect(try refusal("1", "3") == "23503", "a run that does not exist")
        try connection.execute(Self.notification, ["00000000-0000-4000-8000-000000000009", "2", "2"])
        // A referred file, and a run with a file, cannot be deleted.
        #expect(throws: PGError.self) { try connection.execute("DELETE FROM source_files WHERE id = 1") }
        #expect(throws: PGError.self) { try connection.execute("DELETE FROM load_runs WHERE id = 2") }

        // Running the migration's text again changes nothing.
        let migration = try #require(Migrator.all.first { $0.version == 9 })
        try connection.withTransaction { try connection.executeScript(migration.sql, name: migration.name) }
        let count = "SELECT count(*) FROM pg_constraint WHERE conrelid = 'notifications'::regclass AND contype = 'f'"
        #expect(try connection.execute(count).scalar == "1")
        #expect(try connection.execute("SELECT count(*) FROM notifications").scalar == "3")
    }

    @Test func notificationsWithoutAFileStopTheUpgradeWithWhatToDo() throws {
        let connection = try Self.schemaAt8("filerefsnull")
        try connection.execute("UPDATE notifications SET source_file_id = NULL WHERE load_run_id = 2")
        let migrator = Migrator(logger: Logger.test)
        let error = try #require(throws: PGError.self) { try migrator.migrate(connection) }
        #expect(error.message.contains("notifications holds 1 rows without a source file"), "\(error)")
        #expect(String(describing: error).contains("delete them"), "\(error)")
        #expect(try migrator.currentVersion(connection) == 8)

        try connection.execute("UPDATE notifications SET source_file_id = 2 WHERE load_run_id = 2")
        #expect(try migrator.migrate(connection) == Migrator.versions(from: 9))
    }
}

/// Migration 011 fills `app_account_token` and `app_transaction_id` in from the stored payloads (the transaction's,
/// else the renewal info's, an empty one as NULL) and gives the stored episodes their subscription's latest token.
@Suite struct AppAccountTokensMigrationTests {
    @Test func theTokensComeFromTheStoredPayloads() throws {
        let connection = try TestDatabase.makeSchema("tokens").connect()
        #expect(try Migrator(logger: Logger.test).migrate(connection, through: 10) == Array(1...10))
        try connection.execute("INSERT INTO load_runs (id, command, verified) VALUES (1, 'load', true)")
        try connection.execute(
            """
            INSERT INTO source_files (id, load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES (1, 1, 'export.jsonl', 10, 'x', 4, 4, 0, 0)
            """
        )
        let payloads = [
            // The transaction's token and id win over the renewal info's.
            (
                "A", "2024-03-01Z",
                #"{"data": {"signedTransactionInfo": {"appAccountToken": "t-1", "appTransactionId": "701"}, "signedRenewalInfo": {"appAccountToken": "r-1"}}}"#
            ),
            // An empty transaction token: the renewal info's.
            (
                "A", "2024-03-05Z",
                #"{"data": {"signedTransactionInfo": {"appAccountToken": ""}, "signedRenewalInfo": {"appAccountToken": "r-2", "appTransactionId": "702"}}}"#
            ),
            // None at all, later: the subscription's latest token stays r-2.
            ("A", "2024-03-09Z", #"{"data": {"signedTransactionInfo": {"appAccountToken": ""}}}"#),
            // No data.
            ("", "2024-03-10Z", #"{"notificationType": "TEST"}"#),
        ]
        for (index, (subscription, signed, payload)) in payloads.enumerated() {
            try connection.execute(
                """
                INSERT INTO notifications (notification_uuid, notification_type, signed_date, environment,
                                           original_transaction_id, payload, verified, source_file_id, load_run_id)
                VALUES ($1::uuid, 'DID_RENEW', $2::timestamptz, 'Production', $3, $4::jsonb, true, 1, 1)
                """,
                ["00000000-0000-4000-8000-00000000000\(index + 1)", signed, subscription, payload]
            )
        }
        try connection.execute(
            """
            INSERT INTO billing_episodes (environment, original_transaction_id, sequence, start_at, has_grace, outcome,
                saved_in_grace, cohort_month, cohort_week, trial_conversion, opening_notification_uuid)
            VALUES ('Production', 'A', 1, '2024-03-02Z', false, 'open', false, '2024-03', '2024-W09', false,
                    '00000000-0000-4000-8000-000000000002')
            """
        )
        #expect(try Migrator(logger: Logger.test).migrate(connection) == Migrator.versions(from: 11))
        let rows = try connection.execute(
            "SELECT app_account_token, app_transaction_id FROM notifications ORDER BY signed_date"
        ).rows
        #expect(rows == [["t-1", "701"], ["r-2", "702"], [nil, nil], [nil, nil]])
        #expect(try connection.execute("SELECT app_account_token FROM billing_episodes").scalar == "r-2")
        // Again: nothing changes.
        #expect(try Migrator(logger: Logger.test).migrate(connection) == [])
    }
}

/// Migration 012 stores each episode's grace length in whole days, ⌊(grace_end − t0) / 24 h + ½⌋, which the `episodes`
/// view then reads instead of computing.
@Suite struct StoredGraceDaysMigrationTests {
    @Test func theStoredEpisodesGetTheirGraceDaysByTheOneRule() throws {
        let connection = try TestDatabase.makeSchema("gracedays").connect()
        #expect(try Migrator(logger: Logger.test).migrate(connection, through: 11) == Array(1...11))
        // Sequence → grace: a 16-day grace; 15.5 days (a half rounds up); 15.5 days less 1 ms; no grace; a grace
        // whose end is unknown.
        let episodes: [(Int, Bool, String?)] = [
            (1, true, "2024-03-18 00:00Z"), (2, true, "2024-03-17 12:00Z"), (3, true, "2024-03-17 11:59:59.999Z"),
            (4, false, nil), (5, true, nil),
        ]
        for (sequence, hasGrace, graceEnd) in episodes {
            try connection.execute(
                """
                INSERT INTO billing_episodes (environment, original_transaction_id, sequence, start_at, has_grace,
                    grace_end, outcome, saved_in_grace, cohort_month, cohort_week, trial_conversion,
                    opening_notification_uuid)
                VALUES ('Production', 'A', $1::int, '2024-03-02Z', $2::boolean, $3::timestamptz, 'open', false,
                        '2024-03', '2024-W09', false, '00000000-0000-4000-8000-000000000001')
                """,
                [String(sequence), hasGrace ? "t" : "f", graceEnd]
            )
        }
        #expect(try Migrator(logger: Logger.test).migrate(connection) == Migrator.versions(from: 12))
        let stored = try connection.execute("SELECT grace_days FROM billing_episodes ORDER BY sequence").rows
        #expect(stored == [["16"], ["16"], ["15"], [nil], [nil]])
        let viewed = try connection.execute("SELECT grace_days FROM episodes ORDER BY sequence").rows
        #expect(viewed == stored)
        // Again: nothing changes.
        #expect(try Migrator(logger: Logger.test).migrate(connection) == [])
    }
}

/// Migration 013 gives `notifications` the SHA-256 of each row's signed payload: NULL for the rows stored before
/// (their signed text is not stored), 32 bytes or nothing, and an index the loader looks a batch's hashes up by.
@Suite struct SignedPayloadHashesMigrationTests {
    @Test func storedRowsKeepNoHashAndNewOnesTakeThirtyTwoBytes() throws {
        let connection = try TestDatabase.makeSchema("payloadhashes").connect()
        #expect(try Migrator(logger: Logger.test).migrate(connection, through: 12) == Array(1...12))
        try connection.execute("INSERT INTO load_runs (id, command, verified) VALUES (1, 'load', true)")
        try connection.execute(
            """
            INSERT INTO source_files (id, load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES (1, 1, 'export.jsonl', 10, 'x', 1, 1, 0, 0)
            """
        )
        func insert(_ uuid: String, hash: String?) throws {
            try connection.execute(
                """
                INSERT INTO notifications (notification_uuid, notification_type, signed_date, original_transaction_id,
                                           payload, verified, source_file_id, load_run_id\(hash == nil ? "" : ", signed_payload_sha256"))
                VALUES ($1::uuid, 'DID_RENEW', '2024-03-01Z', 'A', '{}', true, 1, 1\(hash == nil ? "" : ", decode($2, 'hex')"))
                """,
                hash == nil ? [uuid] : [uuid, hash]
            )
        }
        try insert("00000000-0000-4000-8000-000000000001", hash: nil)
        #expect(try Migrator(logger: Logger.test).migrate(connection) == Migrator.versions(from: 13))
        #expect(
            try connection.execute("SELECT count(*) FROM notifications WHERE signed_payload_sha256 IS NULL").scalar
                == "1")
        try insert("00000000-0000-4000-8000-000000000002", hash: String(repeating: "ab", count: 32))
        #expect(throws: PGError.self) {
            try insert("00000000-0000-4000-8000-000000000003", hash: String(repeating: "ab", count: 31))
        }
        let index = try connection.execute(
            """
            SELECT count(*) FROM pg_indexes
            WHERE schemaname = current_schema() AND indexname = 'notifications_signed_payload_sha256_idx'
            """
        ).scalar
        #expect(index == "1")
        // Again: nothing changes.
        #expect(try Migrator(logger: Logger.test).migrate(connection) == [])
    }
}
