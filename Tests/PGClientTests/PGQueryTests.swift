import PGClient
import TestSupport
import Testing

/// ``PGQuery``: values interpolated into a statement go as numbered, typed parameters, never as SQL.
@Suite struct PGQueryTests {
    @Test func valuesBecomeNumberedParametersAndConditionsKeepTheirOwn() {
        let environment = "Production"
        let condition: PGQuery = "environment = \(bind: environment) AND only_failures = \(bind: true)"
        let id: Int64 = 7
        let query: PGQuery =
            "SELECT \(sql: "a, b") FROM t WHERE id = \(bind: id) AND \(query: condition) AND n = \(bind: Int32(3))"
        #expect(query.sql == "SELECT a, b FROM t WHERE id = $1 AND environment = $2 AND only_failures = $3 AND n = $4")
        #expect(query.parameters.map(\.parameterText) == ["7", "Production", "true", "3"])
        let plain: PGQuery = "SELECT 1"
        #expect(plain.sql == "SELECT 1" && plain.parameters.isEmpty)
    }

    /// Integers, booleans and instants are sent with their types, so the server needs no cast to read them; text goes
    /// untyped and takes the type of where it stands; nil is NULL of the wrapped type.
    @Test func parametersArriveWithTheirTypes() throws {
        let connection = try TestDatabase.makeSchema("pgquery").connect()
        let count = 42
        let flag = false
        let missing: Int64? = nil
        let instant = PGInstant(milliseconds: 1_767_225_346_817)
        let rows = try connection.execute(
            """
            SELECT pg_typeof(\(bind: count))::text, pg_typeof(\(bind: flag))::text, pg_typeof(\(bind: missing))::text,
                \(bind: missing) IS NULL, pg_typeof(\(bind: instant))::text,
                (extract(epoch FROM \(bind: instant)) * 1000)::bigint, \(bind: count) + 1, \(bind: flag) OR true
            """
        ).rows
        #expect(
            rows == [["bigint", "boolean", "bigint", "t", "timestamp with time zone", "1767225346817", "43", "t"]])
        // Text takes the column's type: a timestamptz, a uuid.
        try connection.execute("CREATE TABLE t (at timestamptz, id uuid, label text)")
        let id = "0d4c8b6e-6f3a-4c53-9f1e-2d8b8a4f6e11"
        let at = "2025-12-31 23:55:46.817+00"
        try connection.execute("INSERT INTO t VALUES (\(bind: at), \(bind: id), \(bind: "x'); DROP TABLE t; --"))")
        let stored = try connection.execute(
            "SELECT (extract(epoch FROM at) * 1000)::bigint, id::text, label FROM t WHERE at = \(bind: instant)"
        ).rows
        #expect(stored == [["1767225346817", id, "x'); DROP TABLE t; --"]])
    }
}
