import Analysis

extension TableRenderer {
    /// The rows as a JSON array of objects, keys in column order: counts and decimals as JSON numbers (written
    /// as in the CSV files, so `0.500000` stays `0.500000`), yes or no as `true` or `false`, text as strings, and
    /// every cell that is empty in the CSV (an undefined rate, an empty text such as a missing currency) as `null`.
    package static func json(_ table: ReportTable) -> String {
        guard !table.rows.isEmpty else { return "[]\n" }
        let keys = table.columns.map(jsonString)
        var output = "[\n"
        for (index, row) in table.rows.enumerated() {
            var members: [String] = []
            for (column, key) in keys.enumerated() {
                members.append(key + ": " + jsonValue(column < row.endIndex ? row[column] : .empty))
            }
            output += "  {" + members.joined(separator: ", ") + "}"
            output += index == table.rows.count - 1 ? "\n" : ",\n"
        }
        return output + "]\n"
    }

    private static func jsonValue(_ cell: ReportTable.Cell) -> String {
        switch cell {
        case .integer, .decimal, .exact:
            // An undefined decimal formats as "": it is null, not a number.
            let text = cell.formatted
            return text.isEmpty ? "null" : text
        case .text(let text):
            return text.isEmpty ? "null" : jsonString(text)
        case .boolean(let value):
            return value ? "true" : "false"
        case .empty:
            return "null"
        }
    }

    /// A JSON string literal (RFC 8259): `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`.
    package static func jsonString(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
