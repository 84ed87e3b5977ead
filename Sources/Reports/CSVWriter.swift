/// Renders report tables as RFC 4180 CSV: a header row, `\n` line endings, UTF-8, and fields quoted when they
/// contain a comma, a double quote, CR or LF (double quotes doubled inside).
package enum CSVWriter {
    /// The whole table as CSV text, each row ending in `\n`.
    package static func render(_ table: ReportTable) -> String {
        var text = ""
        write(table, to: &text)
        return text
    }

    /// Appends the table as CSV to `output`; without `header`, its rows only (a later part of one file).
    package static func write<Output: TextOutputStream>(
        _ table: ReportTable, to output: inout Output, header: Bool = true
    ) {
        if header { writeRecord(table.columns, to: &output) }
        for row in table.rows {
            writeRecord(row.map(\.formatted), to: &output)
        }
    }

    /// One field, quoted when it needs to be.
    package static func field(_ value: String) -> String {
        // Test bytes, not Characters: "\r\n" is one Character and would not match "\n".
        let needsQuotes = value.utf8.contains { byte in
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
        guard needsQuotes else { return value }
        // Bytes again: a quote followed by a combining mark is one Character that is not `"`.
        let quote = UInt8(ascii: "\"")
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(value.utf8.count + 4)
        for byte in value.utf8 {
            if byte == quote { bytes.append(quote) }
            bytes.append(byte)
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func writeRecord<Output: TextOutputStream>(_ fields: [String], to output: inout Output) {
        for (index, value) in fields.enumerated() {
            if index > 0 { output.write(",") }
            output.write(field(value))
        }
        output.write("\n")
    }
}
