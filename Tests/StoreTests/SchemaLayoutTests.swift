import Foundation
import Logging
import PGClient
import Store
import TestSupport
import Testing

/// The layouts a schema can be created with, and how the choice is made, recorded and kept.
@Suite struct SchemaLayoutTests {
    static let partitionedTables = [
        "billing_episodes", "notifications", "subscription_analysis", "subscription_renewals",
    ]

    static func partitioned(_ count: Int) -> [String] {
        partitionedTables.map { "\($0) hash original_transaction_id \(count)" }
    }

    @Test func theEnvironmentNamesALayoutOrNone() throws {
        #expect(try SchemaLayout.requested(by: [:]) == nil)
        #expect(try SchemaLayout.requested(by: ["CHURN_SCHEMA_LAYOUT": ""]) == nil)
        #expect(try SchemaLayout.requested(by: ["CHURN_SCHEMA_LAYOUT": "plain"]) == .plain)
        #expect(
            try SchemaLayout.requested(by: ["CHURN_SCHEMA_LAYOUT": "plain", "CHURN_SCHEMA_PARTITIONS": "3"]) == .plain)
        #expect(try SchemaLayout.requested(by: ["CHURN_SCHEMA_LAYOUT": "partitioned"]) == .partitioned(partitions: 8))
        #expect(
            try SchemaLayout.requested(by: ["CHURN_SCHEMA_LAYOUT": "partitioned", "CHURN_SCHEMA_PARTITIONS": "3"])
                == .partitioned(partitions: 3))
    }

    @Test(arguments: [
        ["CHURN_SCHEMA_LAYOUT": "sharded"], ["CHURN_SCHEMA_LAYOUT": "Partitioned"],
        ["CHURN_SCHEMA_LAYOUT": "partitioned", "CHURN_SCHEMA_PARTITIONS": "0"],
        ["CHURN_SCHEMA_LAYOUT": "partitioned", "CHURN_SCHEMA_PARTITIONS": "1025"],
        ["CHURN_SCHEMA_LAYOUT": "partitioned", "CHURN_SCHEMA_PARTITIONS": "eight"],
    ])
    func refusesAnInvalidSettingNamingTheVariable(_ environment: [String: String]) throws {
        let error = try #require(throws: SchemaLayoutError.self) { try SchemaLayout.requested(by: environment) }
        #expect(String(describing: error).contains("CHURN_SCHEMA_"), "\(error)")
        // And so does every migration that reads it.
        let connection = try TestDatabase.makeSchema("badlayout").connect()
        #expect(throws: SchemaLayoutError.self) {
            try Migrator(logger: .test, environment: environment).migrate(connection)
        }
    }

    @Test func aPartitionedSchemaHasItsTablesHashPartitionedBySubscription() throws {
        let connection = try TestDatabase.makeSchema("partitioned").connect()
        let migrator = Migrator(logger: .test, layout: .partitioned(partitions: 3))
        #expect(try migrator.migrate(connection) == Migrator.all.map(\.version))
        #expect(try connection.partitionedTables() == Self.partitioned(3))
        #expect(try migrator.layout(connection) == .partitioned(partitions: 3))
        let recorded = try connection.execute("SELECT layout, partitions::text FROM schema_layout").rows
        #expect(recorded == [["partitioned", "3"]])
        // Every primary key and unique index of the partitioned tables includes the partition key.
        let keys = try connection.execute(
            """
            SELECT c.relname || ' ' || pg_get_indexdef(x.indexrelid)
            FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'p' AND x.indisunique
            ORDER BY 1
            """
        ).rows.compactMap { $0[0] }
        #expect(keys.count == 4)
        for key in keys { #expect(key.contains("original_transaction_id"), "\(key)") }
        // Rows land in the partition of their subscription.
        try connection.execute("INSERT INTO load_runs (id, command, verified) VALUES (1, 'load', true)")
        try connection.execute(
            """
            INSERT INTO source_files (id, load_run_id, path, size_bytes, sha256, records, loaded, duplicates, rejected)
            VALUES (1, 1, 'export.jsonl', 10, 'x', 7, 7, 0, 0)
            """
        )
        for (index, subscription) in ["A", "B", "C", "D", "E", "F", ""].enumerated() {
            try connection.execute(
                """
                INSERT INTO notifications (notification_uuid, notification_type, signed_date, original_transaction_id,
                                           payload, verified, source_file_id, load_run_id)
                VALUES ($1::uuid, 'DID_RENEW', '2024-03-10Z', $2, '{}', true, 1, 1)
                """,
                [String(format: "00000000-0000-4000-8000-%012d", index), subscription]
            )
        }
        let spread = try connection.execute(
            "SELECT count(DISTINCT tableoid)::text, count(*)::text FROM notifications"
        ).rows
        #expect(spread == [["3", "7"]])
    }

    @Test func theEnvironmentChoosesTheLayoutOfNewSchemasAndOthersKeepTheirs() throws {
        let environment = ["CHURN_SCHEMA_LAYOUT": "partitioned", "CHURN_SCHEMA_PARTITIONS": "2"]
        let fresh = try TestDatabase.makeSchema("envlayout").connect()
        try Migrator(logger: .test, environment: environment).migrate(fresh)
        #expect(try fresh.partitionedTables() == Self.partitioned(2))

        let plain = try TestDatabase.makeSchema("keptplain").connect()
        try Migrator(logger: .test, layout: .plain).migrate(plain)
        #expect(try Migrator(logger: .test, environment: environment).migrate(plain) == [])
        #expect(try plain.partitionedTables() == [])
        #expect(try Migrator(logger: .test).layout(plain) == .plain)
    }

    /// A layout asked for by name (`churn migrate --layout`) that is not the existing schema's fails: nothing is
    /// converted.
    @Test func askingAnExistingSchemaForAnotherLayoutFails() throws {
        let plain = try TestDatabase.makeSchema("askplain").connect()
        try Migrator(logger: .test, layout: .plain).migrate(plain)
        let partitioned = try TestDatabase.makeSchema("askpart").connect()
        try Migrator(logger: .test, layout: .partitioned(partitions: 2)).migrate(partitioned)
        for (connection, asked) in [
            (plain, SchemaLayout.partitioned(partitions: 8)), (partitioned, .plain),
            (partitioned, .partitioned(partitions: 4)),
        ] {
            let error = try #require(throws: SchemaLayoutError.self) {
                try Migrator(logger: .test, layout: asked).migrate(connection)
            }
            #expect(String(describing: error).contains("cannot be converted in place"), "\(error)")
        }
        #expect(try Migrator(logger: .test, layout: .partitioned(partitions: 2)).migrate(partitioned) == [])
        #expect(try Migrator(logger: .test, layout: .plain).migrate(plain) == [])
        #expect(try plain.partitionedTables() == [])
        #expect(try partitioned.partitionedTables() == Self.partitioned(2))
    }

    /// The schema of a release before 008 was plain, whatever is asked now; upgrading it keeps it plain.
    @Test func aSchemaOfAnOlderReleaseIsPlainAndStaysSo() throws {
        let connection = try TestDatabase.makeSchema("olderplain").connect()
        let partitioned = Migrator(logger: .test, layout: .partitioned(partitions: 2))
        #expect(try partitioned.migrate(connection, through: 7) == Array(1...7))
        #expect(try connection.partitionedTables() == [])
        #expect(try partitioned.layout(connection) == nil)
        #expect(throws: SchemaLayoutError.self) { try partitioned.migrate(connection) }
        let environment = ["CHURN_SCHEMA_LAYOUT": "partitioned"]
        #expect(try Migrator(logger: .test, environment: environment).migrate(connection) == Migrator.versions(from: 8))
        #expect(try partitioned.layout(connection) == .plain)
        #expect(try connection.partitionedTables() == [])
    }

    /// Both layouts have the same columns (order, types, defaults), constraints, indexes and views: the partitioned
    /// tables of `sql/layouts/partitioned.sql` are the ones the numbered migrations make.
    @Test func bothLayoutsHaveTheSameShape() throws {
        let plain = try TestDatabase.makeSchema("shapeplain").connect()
        try Migrator(logger: .test, layout: .plain).migrate(plain)
        let partitioned = try TestDatabase.makeSchema("shapepart").connect()
        try Migrator(logger: .test, layout: .partitioned(partitions: 2)).migrate(partitioned)
        let shape = try plain.schemaShape()
        #expect(shape.count > 200)
        let key = "constraint notifications.notifications_pkey PRIMARY KEY (original_transaction_id, notification_uuid)"
        #expect(shape.contains(key))
        #expect(shape.contains { $0.hasPrefix("view episodes ") })
        let other = try partitioned.schemaShape()
        #expect(other.filter { !shape.contains($0) } == [])
        #expect(shape.filter { !other.contains($0) } == [])
    }

    /// `scripts/test.sh` runs the suite once per layout through CHURN_SCHEMA_LAYOUT: every schema a test migrates
    /// has the layout of the run.
    @Test func theSuiteRunsOnTheLayoutItsEnvironmentNames() throws {
        let connection = try TestDatabase.makeSchema("runlayout").migrated()
        let expected = try SchemaLayout.requested(by: ProcessInfo.processInfo.environment) ?? .plain
        #expect(try Migrator(logger: .test).layout(connection) == expected)
        if case .partitioned(let partitions) = expected {
            #expect(try connection.partitionedTables() == Self.partitioned(partitions))
        } else {
            #expect(try connection.partitionedTables() == [])
        }
    }
}
