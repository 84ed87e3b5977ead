import Logging
import PGClient
import Store
import TestSupport
import Testing

/// Each table declaration (``StoredTables``) against the table the migrations make, in either schema layout: the
/// same columns, each of the declared type. A column added by a migration but not declared, declared but not
/// migrated, or declared with another type fails here rather than in a COPY.
@Suite struct StoredTablesTests {
    static let layouts: [SchemaLayout] = [.plain, .partitioned(partitions: 2)]

    @Test(arguments: layouts, StoredTables.all.map(\.name))
    func theDeclarationIsTheMigratedTable(layout: SchemaLayout, name: String) throws {
        let table = try #require(StoredTables.all.first { $0.name == name })
        let connection = try TestDatabase.makeSchema("declared").connect()
        try Migrator(logger: .test, layout: layout).migrate(connection)
        let result = try connection.execute(
            """
            SELECT column_name::text, data_type::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1
            """,
            [table.name]
        )
        let (nameField, typeField) = (try result.field("column_name"), try result.field("data_type"))
        var migrated: [String: String] = [:]
        for row in result.rows {
            migrated[try row.decode(String.self, nameField)] = try row.decode(String.self, typeField)
        }
        #expect(!migrated.isEmpty, "\(table.name) does not exist")
        let declared = Dictionary(table.columns.map { ($0.name, $0.type.name) }) { first, _ in first }
        #expect(declared.count == table.columns.count, "\(table.name) declares a column twice")
        for (column, type) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(migrated[column] == type, "\(table.name).\(column) is declared \(type)")
        }
        for column in migrated.keys.sorted() where declared[column] == nil {
            Issue.record("\(table.name).\(column) is not declared")
        }
    }

    /// Every table the migrations make is declared: none is left to be written or read by a list kept elsewhere.
    @Test(arguments: layouts)
    func everyMigratedTableIsDeclared(layout: SchemaLayout) throws {
        let connection = try TestDatabase.makeSchema("alltables").connect()
        try Migrator(logger: .test, layout: layout).migrate(connection)
        // Partitions are the layout's, not tables of their own.
        let result = try connection.execute(
            """
            SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
            ORDER BY 1
            """)
        let name = try result.field("name")
        let migrated = Set(try result.rows.map { try $0.decode(String.self, name) })
        #expect(migrated.count > 10)
        let declared = Set(StoredTables.all.map(\.name))
        #expect(migrated.subtracting(declared).isEmpty, "not declared: \(migrated.subtracting(declared).sorted())")
        #expect(declared.subtracting(migrated).isEmpty, "not migrated: \(declared.subtracting(migrated).sorted())")
    }

    @Test func theCopyStatementAndSelectListFollowTheDeclaration() {
        let table = PGTable("t", ["a": .text, "at": .timestamptz, "n": .bigint])
        #expect(table.copyFromStdin() == "COPY t (a, at, n) FROM STDIN")
        #expect(table.copyFromStdin(binary: true, into: "s") == "COPY s (a, at, n) FROM STDIN WITH (FORMAT binary)")
        #expect(table.types == [.text, .timestamptz, .bigint])
        var selection = PGSelection(table, qualifier: "x")
        let n = selection.add("n")
        let at = selection.add("at")
        let a = selection.add("a", expression: "nullif(x.a, '')")
        #expect(selection.list == "x.n, (date_part('epoch', x.at) * 1000)::int8, nullif(x.a, '')")
        #expect([n.position, at.position, a.position] == [0, 1, 2])
        #expect(at.name == "at")
    }
}
