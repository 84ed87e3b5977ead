import PGClient
import TestSupport
import Testing

/// Reading COPY text: the parser against the writer, against PostgreSQL's own reader and writer, and against a plain
/// transcription of PostgreSQL's reader on arbitrary bytes.
@Suite struct CopyTextParserTests {
    static func fields(_ row: [UInt8]) -> [String?] {
        row.withUnsafeBytes { CopyTextParser.fields($0) }
    }

    static func fields(_ row: String) -> [String?] {
        fields(Array(row.utf8))
    }

    /// Text that needs every escape, looks like one, or spans several UTF-8 bytes.
    static let valuePieces = [
        "a", "N", "0", "7", "x", "41", ".", " ", "\\", "\\\\", "\\N", "\t", "\n", "\r", "\r\n",
        "\u{8}", "\u{B}", "\u{C}", "\u{1}", "\u{7F}", "é", "€", "𝄞",
    ]

    /// A value of up to a dozen pieces, empty or NULL now and then.
    static func value(_ random: inout SeededRandom) -> String? {
        if random.chance(0.15) { return nil }
        if random.chance(0.05) { return "\\N" }
        return (0..<Int.random(in: 0...12, using: &random)).map { _ in random.pick(valuePieces) }.joined()
    }

    @Test func readsBackEveryRowTheWriterWrites() throws {
        var random = SeededRandom(seed: 0xC0B1)
        var failures = 0
        for _ in 0..<5_000 where failures < 5 {
            let values = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.value(&random) }
            var row = CopyText()
            for value in values { try row.append(value) }
            row.endRow()
            let read = Self.fields(row.bytes)
            if read != values {
                Issue.record("wrote \(values) as \(row.bytes), read back \(read)")
                failures += 1
            }
        }
    }

    /// PostgreSQL writes `\b`, `\f` and `\v` as escapes too, which the tool's writer leaves alone.
    @Test func readsBackWhatPostgreSQLWritesOfWhatItStored() throws {
        let schema = try TestDatabase.makeSchema("copyparse")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (id integer, c1 text, c2 text, c3 text, c4 text, c5 text)")
        var random = SeededRandom(seed: 0xC0B2)
        let rows = (0..<400).map { _ in (0..<5).map { _ in Self.value(&random) } }
        try connection.copyIn("COPY t FROM STDIN") { writer in
            var text = CopyText()
            for (id, values) in rows.enumerated() {
                text.append(id)
                for value in values { try text.append(value) }
                text.endRow()
            }
            try writer.write(row: &text)
        }
        var read: [[String?]] = []
        try connection.copyOut("COPY (SELECT c1, c2, c3, c4, c5 FROM t ORDER BY id) TO STDOUT") { row in
            read.append(CopyTextParser.fields(row))
        }
        #expect(read.count == rows.count)
        for (index, (sent, received)) in zip(rows, read).enumerated().filter({ $0.1.0 != $0.1.1 }).prefix(5) {
            Issue.record("row \(index): sent \(sent), read back \(received)")
        }
    }

    /// Raw COPY text with every escape PostgreSQL reads, canonical or not; each piece decodes to ASCII or whole UTF-8
    /// characters, so the server accepts every row. (`\.` ends the data and a raw newline ends the row, so neither is
    /// among them.)
    static func rawField(_ random: inout SeededRandom) -> String {
        if random.chance(0.1) { return "\\N" }
        var field = ""
        for _ in 0..<Int.random(in: 0...10, using: &random) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                field += random.pick(["a", "N", "f", "7", "8", "é", "𝄞", " ", "\u{1}", "\u{7F}"])
            case 1:
                field += random.pick([
                    "\\\\", "\\t", "\\n", "\\r", "\\b", "\\f", "\\v", "\\N", "\\q", "\\é", "\\\t", "\\xz",
                ])
            case 2:
                // Three octal digits, so a digit after it cannot extend it past 127.
                let code = Int.random(in: 1...127, using: &random)
                field += "\\" + String(code / 64) + String(code / 8 % 8) + String(code % 8)
            case 3:
                // Two hex digits, so a hex digit after it cannot extend it.
                let code = String(Int.random(in: 1...127, using: &random), radix: 16, uppercase: random.chance(0.5))
                field += "\\x" + (code.count == 1 ? "0" : "") + code
            default:
                // One hex digit up to 7: a hex digit after it makes two, still ASCII.
                field += "\\x" + String(Int.random(in: 1...7, using: &random))
            }
        }
        return field
    }

    @Test func readsRawTextAsPostgreSQLReadsIt() throws {
        let schema = try TestDatabase.makeSchema("copyraw")
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (id integer, c1 text, c2 text, c3 text, c4 text)")
        var random = SeededRandom(seed: 0xC0B3)
        let lines = (0..<400).map { id in
            ([String(id)] + (0..<4).map { _ in Self.rawField(&random) }).joined(separator: "\t") + "\n"
        }
        try connection.copyIn("COPY t FROM STDIN") { writer in
            for line in lines { try writer.write(Array(line.utf8)) }
        }
        let stored = try connection.execute("SELECT c1, c2, c3, c4 FROM t ORDER BY id").rows
        #expect(stored.count == lines.count)
        var failures = 0
        for (line, row) in zip(lines, stored) where failures < 5 {
            let parsed = Self.fields(line)
            if parsed != [String(line.prefix { $0 != "\t" })] + row {
                Issue.record("line \(Array(line.utf8)): PostgreSQL stored \(row), the parser read \(parsed)")
                failures += 1
            }
        }
    }

    /// PostgreSQL's reading of one line (CopyReadAttributesText in copyfromparse.c), transcribed plainly: a backslash
    /// takes the byte after it, and a backslash with nothing after it ends the field and is dropped.
    static func referenceFields(_ row: [UInt8]) -> [String?] {
        let line = row.last == 0x0A ? Array(row.dropLast()) : row
        func isOctal(_ byte: UInt8) -> Bool { (0x30...0x37).contains(byte) }
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var fields: [String?] = []
        var index = 0
        while true {
            let start = index
            var end = index
            var value: [UInt8] = []
            var foundDelimiter = false
            while true {
                end = index
                if index >= line.count { break }
                var byte = line[index]
                index += 1
                if byte == 0x09 {
                    foundDelimiter = true
                    break
                }
                if byte == 0x5C {
                    if index >= line.count { break }
                    byte = line[index]
                    index += 1
                    switch byte {
                    case 0x30...0x37:
                        var code = Int(byte - 0x30)
                        for _ in 0..<2 where index < line.count && isOctal(line[index]) {
                            code = code * 8 + Int(line[index] - 0x30)
                            index += 1
                        }
                        byte = UInt8(code & 0xFF)
                    case UInt8(ascii: "x"):
                        if index < line.count, let high = hexValue(line[index]) {
                            index += 1
                            byte = high
                            if index < line.count, let low = hexValue(line[index]) {
                                index += 1
                                byte = high << 4 | low
                            }
                        }
                    case UInt8(ascii: "b"): byte = 0x08
                    case UInt8(ascii: "f"): byte = 0x0C
                    case UInt8(ascii: "n"): byte = 0x0A
                    case UInt8(ascii: "r"): byte = 0x0D
                    case UInt8(ascii: "t"): byte = 0x09
                    case UInt8(ascii: "v"): byte = 0x0B
                    default: break
                    }
                }
                value.append(byte)
            }
            fields.append(line[start..<end].elementsEqual([0x5C, 0x4E]) ? nil : String(decoding: value, as: UTF8.self))
            if !foundDelimiter { return fields }
        }
    }

    @Test func readsArbitraryBytesAsPostgreSQLWould() {
        var random = SeededRandom(seed: 0xC0B4)
        // Mostly the bytes that matter to the format, some others, and invalid UTF-8 now and then.
        let alphabet: [UInt8] =
            Array(repeating: 0x5C, count: 6) + [0x09, 0x09, 0x0A, 0x4E, 0x4E, 0x78, 0x78]
            + Array("0123789abfnrtvAF".utf8) + [0x00, 0x0D, 0x80, 0xC3, 0xA9, 0xFF]
        var failures = 0
        for _ in 0..<20_000 where failures < 5 {
            let row = (0..<Int.random(in: 0...16, using: &random)).map { _ in random.pick(alphabet) }
            let (parsed, expected) = (Self.fields(row), Self.referenceFields(row))
            if parsed != expected {
                Issue.record("row \(row): read \(parsed), PostgreSQL reads \(expected)")
                failures += 1
            }
        }
    }

    @Test(
        arguments: [
            ("", [""]),
            ("\n", [""]),
            ("\t\n", ["", ""]),
            ("a\tb\tc\n", ["a", "b", "c"]),
            ("\\N\t\\\\N\ta\\N\t\\N\\N\n", [nil, "\\N", "aN", "NN"]),
            ("\\t\\n\\r\\b\\f\\v\\\\\n", ["\t\n\r\u{8}\u{C}\u{B}\\"]),
            ("a\\\tb\tc", ["a\tb", "c"]),
            ("\\101\\18\\0411\\7\n", ["A\u{1}8!1\u{7}"]),
            ("\\x41\\x4g\\xZ\\x7E7\n", ["A\u{4}gxZ~7"]),
            ("\\é\\q\n", ["éq"]),
            ("a\tb\\", ["a", "b"]),
            ("a\\\n", ["a"]),
            ("\\", [""]),
            ("\\\t\\", ["\t"]),
        ] as [(String, [String?])])
    func readsTheFormatsEscapes(row: String, expected: [String?]) {
        #expect(Self.fields(row) == expected)
    }

    /// One field read alone is the same field read with the others, and a position past the last is nil.
    @Test func readsOneFieldAsItReadsThemAll() throws {
        var random = SeededRandom(seed: 0xF1E1D)
        var failures = 0
        for _ in 0..<2_000 where failures < 5 {
            let values = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.value(&random) }
            var row = CopyText()
            for value in values { try row.append(value) }
            row.endRow()
            let single = (0...values.count).map { position in
                row.bytes.withUnsafeBytes { CopyTextParser.field($0, at: position) }
            }
            if single != values + [nil] {
                Issue.record("wrote \(values) as \(row.bytes), read one at a time \(single)")
                failures += 1
            }
        }
        // Rows as PostgreSQL's reader takes them: a lone backslash at the end, an escaped tab, no newline.
        for row in ["a\\\tb\tc\n", "a\tb\\", "a\\\tb", "\\N\t\tx"] {
            let bytes = Array(row.utf8)
            let all = Self.fields(bytes)
            for position in 0...all.count {
                let one = bytes.withUnsafeBytes { CopyTextParser.field($0, at: position) }
                #expect(one == (position < all.count ? all[position] : nil), "\(row) field \(position)")
            }
        }
    }

    /// The row reader gives each field what ``CopyTextParser/fields(_:)`` gives, row after row (its buffer kept from
    /// one to the next); its integers are what `Int64(_:)` makes of the text.
    @Test func theRowReaderReadsEachRowAsTheParserDoes() {
        var random = SeededRandom(seed: 0xF1E1E)
        let alphabet: [UInt8] = [0x5C, 0x5C, 0x09, 0x09, 0x4E, 0x78, 0x2D, 0x2B, 0x20] + Array("0123456789abAF".utf8)
        let numbers = [
            "0", "-0", "+7", "42", "-42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809", "00012", "1e3", "", "-", "+", " 1", "1 ", "12a", "١٢",
        ]
        var reader = CopyTextRowReader()
        var previous: [UInt8] = []
        var failures = 0
        for _ in 0..<20_000 where failures < 5 {
            var row: [UInt8]
            if random.chance(0.3), !previous.isEmpty {
                // The previous row again, with one more field now and then.
                row = previous
                if random.chance(0.5) { row.append(contentsOf: Array("\t1".utf8)) }
            } else if random.chance(0.4) {
                let fields = (0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(numbers) }
                row = Array(fields.joined(separator: "\t").utf8)
            } else {
                row = (0..<Int.random(in: 0...16, using: &random)).map { _ in random.pick(alphabet) }
            }
            previous = row
            let expected = Self.fields(row)
            let (texts, integers): ([String?], [Int64?]) = row.withUnsafeBytes { bytes in
                reader.read(bytes)
                let indexes = 0..<(reader.count + 1)
                return (indexes.map { reader.text($0) }, indexes.map { reader.int64($0) })
            }
            if reader.count != expected.count || texts != expected + [nil]
                || integers != (expected + [nil]).map({ $0.flatMap { Int64($0) } })
            {
                Issue.record("row \(row): read \(texts) and \(integers), the parser reads \(expected)")
                failures += 1
            }
        }
    }

    /// Reading a field again with the value of the row before (`decode(_:_:reusing:)`) gives what a plain read gives,
    /// on rows that repeat, change, hold NULL (`\N`) or an escaped tab (never reused), and keeps the last value through a
    /// NULL.
    @Test func aFieldReadWithTheValueBeforeIsWhatAPlainReadGives() throws {
        var selection = PGSelection(PGTable("t", ["a": .text, "b": .text]))
        let (a, b) = (selection.add("a"), selection.add("b"))
        let values = ["2000000000000001", "2000000000000002", "\\N", "", "x\\ty", "com.example.app.monthly"]
        var random = SeededRandom(seed: 0x7265_7573_6520_6669)
        var reader = CopyTextRowReader()
        var previous: (a: String?, b: String?) = (nil, nil)
        var lastValue: String?
        for _ in 0..<5_000 {
            let row = Array((random.pick(values) + "\t" + random.pick(values)).utf8)
            try row.withUnsafeBytes { bytes in
                reader.read(bytes)
                let plain = (try reader.decode(String?.self, a), try reader.decode(String?.self, b))
                let reused = (
                    try reader.decode(String?.self, a, reusing: &previous.a),
                    try reader.decode(String?.self, b, reusing: &previous.b)
                )
                #expect(reused.0 == plain.0 && reused.1 == plain.1, "row \(row)")
                if let value = plain.0 { lastValue = value }
                #expect(previous.a == lastValue)
            }
        }
        let null = Array("\\N\tb".utf8)
        null.withUnsafeBytes { bytes in
            reader.read(bytes)
            #expect(throws: PGError.self) { try reader.decode(String.self, a, reusing: &previous.a) }
        }
    }
}
