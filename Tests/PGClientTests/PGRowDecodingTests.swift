import TestSupport
import Testing

@testable import PGClient

/// Typed parameters in, typed values out: through a live query and through COPY's text rows, and a clear error
/// naming the column for a value that is missing, NULL or not of the type asked for.
@Suite struct PGRowDecodingTests {
    @Test func typedParametersComeBackAsTypedValues() throws {
        let connection = try TestDatabase.makeSchema("typed").connect()
        let result = try connection.execute(
            """
            SELECT $1::text AS name, $2::bigint AS big, $3::integer AS small, $4::boolean AS flag,
                   $5::text AS missing, $6::int AS narrow
            """,
            ["x'; --", Int64.max, 7, true, String?.none, Int32.min]
        )
        let row = try #require(result.rows.first)
        #expect(try row.decode(String.self, result.field("name")) == "x'; --")
        #expect(try row.decode(Int64.self, result.field("big")) == Int64.max)
        #expect(try row.decode(Int.self, result.field("small")) == 7)
        #expect(try row.decode(Bool.self, result.field("flag")))
        #expect(try row.decode(String?.self, result.field("missing")) == nil)
        #expect(try row.decode(Int32.self, result.field("narrow")) == Int32.min)
    }

    private enum Outcome: String { case open, recovered }

    @Test func anEnumIsDecodedByItsRawValueAndAnUnknownOneNamesItsColumn() throws {
        let connection = try TestDatabase.makeSchema("enums").connect()
        let result = try connection.execute(
            "SELECT 'recovered'::text AS outcome, NULL::text AS previous, 'lost'::text AS other")
        let row = try #require(result.rows.first)
        #expect(try row.decode(Outcome.self, result.field("outcome")) == .recovered)
        #expect(try row.decode(Outcome?.self, result.field("previous")) == nil)
        let unknown = try #require(throws: PGError.self) { try row.decode(Outcome?.self, result.field("other")) }
        #expect(unknown.message.contains("other") && unknown.message.contains("lost"))
        let null = try #require(throws: PGError.self) { try row.decode(Outcome.self, result.field("previous")) }
        #expect(null.message.contains("previous") && null.message.contains("NULL"))
    }

    @Test func aBadValueNamesItsColumn() throws {
        let connection = try TestDatabase.makeSchema("badvalue").connect()
        let result = try connection.execute("SELECT 'abc'::text AS count, NULL::bigint AS total")
        let row = try #require(result.rows.first)
        let malformed = try #require(throws: PGError.self) { try row.decode(Int.self, result.field("count")) }
        #expect(malformed.kind == .unexpectedResult)
        #expect(malformed.message.contains("count") && malformed.message.contains("abc"))
        let null = try #require(throws: PGError.self) { try row.decode(Int64.self, result.field("total")) }
        #expect(null.message.contains("total") && null.message.contains("NULL"))
        let unknown = try #require(throws: PGError.self) { try result.field("totals") }
        #expect(unknown.message.contains("totals"))
        let missing = try #require(throws: PGError.self) {
            try row.decode(String?.self, PGField(name: "extra", position: 2))
        }
        #expect(missing.message.contains("extra"))
    }

    @Test func copyRowsDecodeAsQueryRowsDo() throws {
        let connection = try TestDatabase.makeSchema("copydecode").connect()
        let table = PGTable("t", ["label": .text, "at": .timestamptz, "amount": .bigint, "done": .boolean])
        try connection.execute("CREATE TABLE t (label text, at timestamptz, amount bigint, done boolean)")
        try connection.execute(
            """
            INSERT INTO t VALUES ('tab\tand \\N', '2024-03-10 12:00:00.123Z', -42, true),
                                 (NULL, NULL, NULL, NULL)
            """
        )
        var selection = PGSelection(table)
        let (label, at, amount, done) = (
            selection.add("label"), selection.add("at"), selection.add("amount"), selection.add("done")
        )
        var fields = CopyTextRowReader()
        var decoded: [[String]] = []
        try connection.copyOut("COPY (SELECT \(selection.list) FROM t ORDER BY label) TO STDOUT") { row in
            fields.read(row)
            decoded.append([
                String(describing: try fields.decode(String?.self, label)),
                String(describing: try fields.decode(Int64?.self, at)),
                String(describing: try fields.decode(Int64?.self, amount)),
                String(describing: try fields.decode(Bool?.self, done)),
            ])
        }
        #expect(
            decoded == [
                [#"Optional("tab\tand \\N")"#, "Optional(1710072000123)", "Optional(-42)", "Optional(true)"],
                ["nil", "nil", "nil", "nil"],
            ])
    }
}
