import Foundation
import Logging
import PGClient
import Store
import Testing
import TestSupport

@Suite struct MigratorTests {
    @Test func everySQLFileIsCompiledInInOrder() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sql")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(Migrator.all.map(\.name) == files)
        #expect(Migrator.all.map(\.version) == Array(1...files.count))
        for migration in Migrator.all {
            let onDisk = try String(contentsOf: directory.appendingPathComponent(migration.name), encoding: .utf8)
            #expect(migration.sql == onDisk, "\(migration.name) differs from the compiled-in copy")
        }
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
        for table in ["load_runs", "notifications", "quarantine", "schema_migrations", "source_files"] {
            #expect(tables.contains(table))
        }
    }
}
