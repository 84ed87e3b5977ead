import PGClient
import TestSupport
import Testing

/// ``PGRowEncoder``: every kind of value stored through binary COPY into the table it was declared for, read back
/// as PostgreSQL shows it; and each mistake (a value of the wrong kind, one its column cannot hold, a row too short
/// or too long) refused before it reaches the server, naming the column.
@Suite struct PGRowEncoderTests {
    private static let table = PGTable(
        "encoded",
        [
            "label": .text, "id": .uuid, "small": .smallint, "count": .integer, "price": .bigint, "flag": .boolean,
            "at": .timestamptz, "later": .timestamptz, "elapsed": .interval,
        ]
    )

    @Test func storesEachValueAtItsColumnsType() throws {
        let schema = try TestDatabase.makeSchema("rowencoder")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE encoded (\(Self.table.columnDefinitions))")
        var rows = PGRowEncoder(Self.table)
        try rows.append("é, \"quoted\"\\t")
        try rows.append("01234567-89AB-CDEF-0123-456789ABCDEF")
        try rows.append(-2)
        try rows.append(Int(Int32.max))
        try rows.append(Int64.min)
        try rows.append(true)
        try rows.append(milliseconds: 1_700_000_000_123)
        try rows.append(millisecondsOrNull: 253_402_300_800_000)  // the year 10000: NULL
        try rows.append(intervalMilliseconds: 20 * 86_400_000 + 6 * 3_600_000 + 1)
        try rows.endRow()
        try rows.append(String?.none)
        try rows.append(String?.none)
        try rows.append(Int?.none)
        try rows.append(Int32?.none)
        try rows.append(Int64?.none)
        try rows.append(Bool?.none)
        try rows.append(milliseconds: nil)
        try rows.append(millisecondsOrNull: 0)
        try rows.append(intervalMilliseconds: nil)
        try rows.endRow()
        let stored = try connection.copyIn(Self.table.copyFromStdin(binary: true)) { try $0.write(rows.bytes) }
        #expect(stored == 2)
        let result = try connection.execute(
            """
            SELECT label, id::text, small, count, price, flag, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'),
                   later::text, elapsed::text
            FROM encoded ORDER BY label NULLS LAST
            """)
        #expect(
            result.rows.map { $0.map { $0 ?? "NULL" } } == [
                [
                    "é, \"quoted\"\\t", "01234567-89ab-cdef-0123-456789abcdef", "-2", "2147483647",
                    "-9223372036854775808", "t", "2023-11-14 22:13:20.123", "NULL", "20 days 06:00:00.001",
                ],
                ["NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "1970-01-01 00:00:00+00", "NULL"],
            ])
    }

    @Test func refusesAValueOfTheWrongKindNamingTheColumn() {
        var rows = PGRowEncoder(Self.table)
        let error = #expect(throws: PGError.self) { try rows.append(3) }
        #expect(error?.message == "encoded.label is text, not an integer")
    }

    @Test func refusesAnIntegerItsColumnCannotHold() throws {
        var rows = PGRowEncoder(Self.table)
        try rows.append("a")
        try rows.append("01234567-89ab-cdef-0123-456789abcdef")
        let error = #expect(throws: PGError.self) { try rows.append(Int(Int16.max) + 1) }
        #expect(error?.message == "encoded.small: 32768 is out of range for smallint")
        var next = PGRowEncoder(Self.table)
        try next.append("a")
        try next.append("01234567-89ab-cdef-0123-456789abcdef")
        try next.append(1)
        #expect(throws: PGError.self) { try next.append(Int(Int32.min) - 1) }
    }

    @Test func refusesATimeOutsideTheYears1To9999() throws {
        var rows = PGRowEncoder(PGTable("t", ["at": .timestamptz]))
        let error = #expect(throws: PGError.self) { try rows.append(milliseconds: -62_135_596_800_001) }
        #expect(error?.message == "t.at: the time -62135596800001 ms is outside the years 1–9999")
    }

    @Test func refusesARowTooShortOrTooLong() throws {
        var rows = PGRowEncoder(PGTable("t", ["a": .text, "b": .integer]))
        try rows.append("x")
        let short = #expect(throws: PGError.self) { try rows.endRow() }
        #expect(short?.message == "a row of t ended after 1 of its 2 columns")
        try rows.append(1)
        try rows.endRow()
        try rows.append("y")
        try rows.append(2)
        let long = #expect(throws: PGError.self) { try rows.append("z") }
        #expect(long?.message == "a row of t has more than 2 values")
    }
}
