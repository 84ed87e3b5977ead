import PGClient
import TestSupport
import Testing

/// Binary COPY encoding: the bytes of each type without a server, then many generated rows stored through binary
/// COPY, through the text transcoding of the same rows, and through rows built independently with ``CopyText``,
/// which must all three store the same values.
@Suite struct CopyBinaryTests {
    @Test func writesEachTypeInItsSendFormat() throws {
        var rows = CopyBinary()
        rows.append(Int16(-2))
        rows.append(Int32(0x0102_0304))
        rows.append(Int64(-1))
        rows.append(true)
        rows.append(false)
        rows.appendNull()
        rows.append(Int32?.none)
        try rows.append("é")
        try Array("{}".utf8).withUnsafeBytes { try rows.appendJSONB(utf8: $0) }
        rows.appendTimestamp(milliseconds: 946_684_800_001)
        rows.appendTimestamp(milliseconds: 0)
        rows.endRow()
        let expected: [[UInt8]] = [
            [0, 11],
            [0, 0, 0, 2, 0xFF, 0xFE],
            [0, 0, 0, 4, 1, 2, 3, 4],
            [0, 0, 0, 8] + Array(repeating: 0xFF, count: 8),
            [0, 0, 0, 1, 1],
            [0, 0, 0, 1, 0],
            [0xFF, 0xFF, 0xFF, 0xFF],
            [0xFF, 0xFF, 0xFF, 0xFF],
            [0, 0, 0, 2, 0xC3, 0xA9],
            [0, 0, 0, 3, 1, 0x7B, 0x7D],
            // 2000-01-01 00:00:00.001: 1000 µs after PostgreSQL's epoch.
            [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0x03, 0xE8],
            // 1970-01-01: -946 684 800 000 000 µs.
            [0, 0, 0, 8] + withUnsafeBytes(of: Int64(-946_684_800_000_000).bigEndian) { Array($0) },
        ]
        #expect(rows.bytes == expected.flatMap { $0 })
    }

    @Test(arguments: [
        "01234567-89ab-cdef-0123-456789abcdef", "01234567-89AB-CDEF-0123-456789ABCDEF",
        "0123456789abcdef0123456789abcdef",
    ])
    func readsAUUIDInEitherCaseWithOrWithoutHyphens(_ text: String) throws {
        var rows = CopyBinary()
        try rows.append(uuid: text)
        rows.endRow()
        let value: [UInt8] = [
            0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,
        ]
        #expect(rows.bytes == [0, 1, 0, 0, 0, 16] + value)
        #expect(CopyBinary.uuidText(value[...]) == "01234567-89ab-cdef-0123-456789abcdef")
    }

    @Test(arguments: [
        "", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0", "0123456789abcdef0123456789abcdeg",
        "01234567-89ab-cdef-0123-456789abcde-f", "-0123456789abcdef0123456789abcdef", "'; DROP TABLE t; --",
    ])
    func refusesTextThatIsNotAUUID(_ text: String) {
        var rows = CopyBinary()
        #expect(throws: PGError.self) { try rows.append(uuid: text) }
        #expect(rows.bytes.isEmpty, "nothing of a refused value is written")
    }

    /// Values that name their columns, in the declaration's order, encode as the unnamed appends do.
    @Test func namedValuesEncodeAsUnnamedOnes() throws {
        let table = PGTable("pairs", ["label": .text, "count": .integer, "at": .timestamptz, "ok": .boolean])
        var named = CopyBinary(declaration: table)
        try named.append("a", column: "label")
        named.append(Int32(3), column: "count")
        let inRange = named.appendTimestamp(milliseconds: 0, column: "at")
        #expect(inRange)
        named.appendNull(column: "ok")
        named.endRow()
        var unnamed = CopyBinary()
        try unnamed.append("a")
        unnamed.append(Int32(3))
        unnamed.appendTimestamp(milliseconds: 0)
        unnamed.appendNull()
        unnamed.endRow()
        #expect(named.bytes == unnamed.bytes)
    }

    #if DEBUG
        /// A debug build stops a writer that gives a value for another column than the declaration has at that
        /// position, or ends a row short of the declaration's columns.
        @Test func aDebugBuildStopsAValueForTheWrongColumnAndAShortRow() async {
            await #expect(processExitsWith: .failure) {
                var rows = CopyBinary(declaration: PGTable("pairs", ["first": .text, "second": .text]))
                try? rows.append("2", column: "second")
            }
            await #expect(processExitsWith: .failure) {
                var rows = CopyBinary(declaration: PGTable("pairs", ["first": .text, "second": .text]))
                try? rows.append("1", column: "first")
                rows.endRow()
            }
        }
    #endif

    @Test func refusesANulByteInTextAndJSON() {
        var rows = CopyBinary()
        #expect(throws: PGError.self) { try rows.append("a\u{0}b") }
        #expect(throws: PGError.self) {
            try Array("{\"a\":\"\u{0}\"}".utf8).withUnsafeBytes { try rows.appendJSONB(utf8: $0) }
        }
        #expect(rows.bytes.isEmpty)
    }

    @Test func refusesTimestampsOutsideTheYears1To9999() {
        var rows = CopyBinary()
        let beforeYear1 = rows.appendTimestamp(milliseconds: -62_135_596_800_001)
        let year10000 = rows.appendTimestamp(milliseconds: 253_402_300_800_000)
        #expect(!beforeYear1)
        #expect(!year10000)
        #expect(rows.bytes.isEmpty)
        let first = rows.appendTimestamp(milliseconds: -62_135_596_800_000)
        let last = rows.appendTimestamp(milliseconds: 253_402_300_799_999)
        #expect(first && last)
        #expect(rows.count == 2 + 12 + 12)
    }

    @Test func findsRowsAndFieldsAgain() throws {
        var rows = CopyBinary()
        try rows.append("first")
        rows.appendNull()
        rows.append(Int64(7))
        rows.endRow()
        rows.endRow()
        try rows.append("")
        rows.endRow()
        let ranges = CopyBinary.rowRanges(rows.bytes)
        #expect(ranges.map(\.count) == [2 + 9 + 4 + 12, 2, 2 + 4])
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == rows.count)
        let first = rows.bytes[ranges[0]]
        let fields = CopyBinary.fieldRanges(ofRow: first)
        #expect(fields == [6..<11, nil, 19..<27])
        #expect(CopyBinary.int64(first, at: 19) == 7)
        #expect(CopyBinary.fieldRanges(ofRow: rows.bytes[ranges[1]]).isEmpty)
        #expect(CopyBinary.fieldRanges(ofRow: rows.bytes[ranges[2]]) == [6..<6])
        // One buffer read row after row holds each row's fields alone: none of a longer row before it.
        var buffer: [Range<Int>?] = []
        let reused = ranges.map { range in
            CopyBinary.fieldRanges(ofRow: rows.bytes[range], into: &buffer)
            return buffer
        }
        #expect(reused == ranges.map { CopyBinary.fieldRanges(ofRow: rows.bytes[$0]) })
        // A cut buffer yields the whole rows before the cut.
        #expect(CopyBinary.rowRanges(rows.bytes.dropLast(3)) == Array(ranges.prefix(2)))
    }

    @Test func truncatesToARowBoundary() throws {
        var rows = CopyBinary()
        try rows.append("kept")
        rows.endRow()
        let mark = rows.count
        try rows.append("dropped")
        rows.truncate(to: mark)
        try rows.append("next")
        rows.endRow()
        var expected = CopyBinary()
        try expected.append("kept")
        expected.endRow()
        try expected.append("next")
        expected.endRow()
        #expect(rows.bytes == expected.bytes)
    }

    /// The columns of the generated rows, one of each type and a second text and timestamp.
    static let types: [CopyBinary.FieldType] = [
        .uuid, .text, .text, .jsonb, .smallint, .integer, .bigint, .boolean, .timestamptz, .timestamptz,
    ]
    static let table = """
        (u uuid, t text, t2 text, j jsonb, s smallint, i integer, b bigint, f boolean, ts timestamptz, ts2 timestamptz,
        n bigint)
        """

    /// One generated value per column, nil for NULL; `n` numbers the rows.
    struct Row {
        var uuid: String?
        var text: String?
        var text2: String?
        var json: String?
        var small: Int16?
        var integer: Int32?
        var big: Int64?
        var flag: Bool?
        var time: Int64?
        var time2: Int64?
        var number: Int64
    }

    static let texts = [
        "", "plain", "tab\there", "new\nline", "carriage\rreturn", "back\\slash", "\\N", "€ multi-byte 𝄞",
        "naïve café 東京", "quote ' and \" both", String(repeating: "long ", count: 400), "\u{7F}\u{1}\u{1F}",
    ]
    static let jsons = [
        "{}", "[]", "null", "0", "\"text\"", #"{"b": 1, "a": [1.5, -2e3, true, null]}"#, #"{"key": "tab\tand\\n"}"#,
        #"{"é": "東京 \u00e9 \ud834\udd1e"}"#, #"{"nested": {"deep": {"x": 12345678901234567890}}}"#,
    ]
    static let instants: [Int64] = [
        -62_135_596_800_000, 253_402_300_799_999, 0, -1, 946_684_800_000, 946_684_799_999, 1_711_843_260_123,
        -2_208_988_800_000, 4_102_444_800_000, 951_782_400_000,
    ]

    static func generatedRows(_ count: Int) -> [Row] {
        var random = SeededRandom(seed: 15)
        func maybe<T>(_ value: T) -> T? { random.chance(0.2) ? nil : value }
        return (0..<count).map { index in
            var uuid: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            if index == 0 { uuid = Array(repeating: 0, count: 16) }
            if index == 1 { uuid = Array(repeating: 0xFF, count: 16) }
            return Row(
                uuid: maybe(CopyBinary.uuidText(uuid[...])),
                text: maybe(texts[index % texts.count]),
                text2: maybe(texts.randomElement(using: &random) ?? ""),
                json: maybe(jsons.randomElement(using: &random) ?? "{}"),
                small: maybe([Int16.min, Int16.max, 0, -1, 4].randomElement(using: &random) ?? 0),
                integer: maybe(
                    random.chance(0.5)
                        ? Int32.random(in: .min ... .max, using: &random) : [Int32.min, Int32.max][index % 2]),
                big: maybe(
                    random.chance(0.5)
                        ? Int64.random(in: .min ... .max, using: &random) : [Int64.min, Int64.max][index % 2]),
                flag: maybe(random.chance(0.5)),
                time: maybe(instants[index % instants.count]),
                time2: maybe(Int64.random(in: -62_135_596_800_000..<253_402_300_800_000, using: &random)),
                number: Int64(index)
            )
        }
    }

    @Test func binaryTranscodedAndTextRowsStoreTheSameValues() throws {
        let schema = try TestDatabase.makeSchema("copybinary")
        let connection = try schema.connect()
        for name in ["from_binary", "from_transcoded", "from_text"] {
            try connection.execute("CREATE TABLE \(name) \(Self.table)")
        }
        let generated = Self.generatedRows(3000)

        var binary = CopyBinary()
        var text = CopyText()
        for row in generated {
            if let uuid = row.uuid { try binary.append(uuid: uuid) } else { binary.appendNull() }
            try binary.append(row.text)
            try binary.append(row.text2)
            if let json = row.json {
                try Array(json.utf8).withUnsafeBytes { try binary.appendJSONB(utf8: $0) }
            } else {
                binary.appendNull()
            }
            binary.append(row.small)
            binary.append(row.integer)
            binary.append(row.big)
            binary.append(row.flag)
            let inRange =
                binary.appendTimestamp(milliseconds: row.time) && binary.appendTimestamp(milliseconds: row.time2)
            #expect(inRange)
            binary.append(row.number)
            binary.endRow()

            try text.append(row.uuid)
            try text.append(row.text)
            try text.append(row.text2)
            try text.append(row.json)
            text.append(row.small)
            text.append(row.integer)
            text.append(row.big)
            text.append(row.flag)
            for time in [row.time, row.time2] {
                if let time, let value = PGTimestamp.text(milliseconds: time) {
                    text.appendVerbatim(value)
                } else {
                    text.appendNull()
                }
            }
            text.append(row.number)
            text.endRow()
        }
        var transcoded = CopyText()
        try transcoded.append(binaryRows: binary.bytes[...], types: Self.types + [.bigint])

        let stored = try connection.copyIn("COPY from_binary FROM STDIN WITH (FORMAT binary)", chunkSize: 4096) {
            writer in
            // In pieces, to show rows of one buffer can be sent in any grouping.
            for range in CopyBinary.rowRanges(binary.bytes) { try writer.write(binary.bytes[range]) }
        }
        #expect(stored == generated.count)
        let fromTranscoded = try connection.copyIn("COPY from_transcoded FROM STDIN") { writer in
            try writer.write(transcoded.bytes)
        }
        let fromText = try connection.copyIn("COPY from_text FROM STDIN") { writer in try writer.write(text.bytes) }
        #expect(fromTranscoded == generated.count)
        #expect(fromText == generated.count)

        for other in ["from_transcoded", "from_text"] {
            let differing = try connection.execute(
                """
                SELECT count(*) FROM (
                    (SELECT * FROM from_binary EXCEPT ALL SELECT * FROM \(other))
                    UNION ALL (SELECT * FROM \(other) EXCEPT ALL SELECT * FROM from_binary)) d
                """
            ).scalar
            #expect(differing == "0", "binary and \(other) rows differ")
        }
        // The comparison sees every column: NULLs and extremes are there, and values are what was generated.
        let spot = try connection.execute(
            """
            SELECT count(*) FILTER (WHERE u IS NULL)::text, count(*) FILTER (WHERE s = -32768)::text,
                   min(ts)::text, max(ts)::text,
                   count(*) FILTER (WHERE t = '€ multi-byte 𝄞')::text, count(*) FILTER (WHERE j ? 'é')::text
            FROM from_binary
            """
        ).rows.first
        let generatedNulls = generated.filter { $0.uuid == nil }.count
        #expect(spot?[0] == String(generatedNulls))
        #expect(spot?[1] != "0")
        #expect(spot?[2] == "0001-01-01 00:00:00+00")
        #expect(spot?[3] == "9999-12-31 23:59:59.999+00")
        #expect(spot?[4] != "0")
        #expect(spot?[5] != "0")
    }

    @Test func aFieldOfTheWrongWidthIsRefusedAsBinaryAndReadAsTextShowsTheValue() throws {
        let schema = try TestDatabase.makeSchema("copywidth")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (s smallint)")
        var binary = CopyBinary()
        binary.append(Int32(70_000))
        binary.endRow()
        let refusal = try #require(throws: PGError.self) {
            try connection.copyIn("COPY t FROM STDIN WITH (FORMAT binary)") { writer in try writer.write(binary.bytes) }
        }
        #expect(refusal.isDataError)
        var text = CopyText()
        try text.append(binaryRows: binary.bytes[...], types: [.smallint])
        #expect(text.bytes == Array("70000\n".utf8))
        let textRefusal = try #require(throws: PGError.self) {
            try connection.copyIn("COPY t FROM STDIN") { writer in try writer.write(text.bytes) }
        }
        #expect(textRefusal.message.contains("smallint"), "\(textRefusal.message)")
        // The connection stays usable, and nothing was stored.
        #expect(try connection.execute("SELECT count(*) FROM t").scalar == "0")
    }

    @Test func transcodingRefusesRowsOfAnotherShape() throws {
        var binary = CopyBinary()
        try binary.append("one")
        binary.endRow()
        var text = CopyText()
        #expect(throws: PGError.self) { try text.append(binaryRows: binary.bytes[...], types: [.text, .text]) }
        #expect(throws: PGError.self) { try text.append(binaryRows: binary.bytes[...], types: [.uuid]) }
        #expect(throws: PGError.self) { try text.append(binaryRows: binary.bytes[...], types: [.boolean]) }
    }
}
