import Analysis

/// Writes a ``ReportTable`` for a terminal or a tool: aligned text, CSV, JSON or Markdown.
///
/// Every format shows the cells as the CSV files do (`ReportTable.Cell.formatted`: `.` as the decimal mark, fixed
/// decimals, empty for undefined values), so the numbers are the same whichever format is asked for.
package enum TableRenderer {
    /// An output format.
    package enum Format: String, Hashable, Sendable, CaseIterable {
        /// Columns aligned with spaces, numbers right-aligned, for people at a terminal.
        case table
        /// RFC 4180, as the report's CSV files (``CSVWriter``).
        case csv
        /// An array of objects, one per row, keyed by column; numbers as numbers, booleans as booleans, `null` for
        /// empty cells.
        case json
        /// A Markdown table (`|` in cells escaped as `\|`).
        case markdown
    }

    /// The table in `format`, ending with a line break.
    package static func render(_ table: ReportTable, as format: Format) -> String {
        switch format {
        case .table: return text(table)
        case .csv: return CSVWriter.render(table)
        case .json: return json(table)
        case .markdown: return markdown(table)
        }
    }

    /// Aligned text: a header, a rule of dashes, then the rows; columns two spaces apart, lines without trailing
    /// spaces. A column holding any number is right-aligned, the others left-aligned. Line breaks and other
    /// control characters in text are shown as spaces, so a value can neither break a row nor steer the terminal.
    package static func text(_ table: ReportTable) -> String {
        let header = table.columns.map(printable)
        let rows = table.rows.map { $0.map { printable($0.formatted) } }
        let isNumeric = table.columns.indices.map { column in
            table.rows.contains { row in column < row.endIndex && isNumber(row[column]) }
        }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.endIndex {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var fields: [String] = []
            for (column, width) in widths.enumerated() {
                let cell = column < cells.endIndex ? cells[column] : ""
                let padding = String(repeating: " ", count: max(0, width - cell.count))
                fields.append(isNumeric[column] ? padding + cell : cell + padding)
            }
            var text = fields.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        var output = line(header)
        output += line(widths.map { String(repeating: "-", count: $0) })
        for row in rows { output += line(row) }
        return output
    }

    /// A Markdown table through ``MarkdownWriter``: numeric columns right-aligned, every cell escaped.
    package static func markdown(_ table: ReportTable) -> String {
        let alignments: [MarkdownWriter.Alignment] = table.columns.indices.map { column in
            table.rows.contains { row in column < row.endIndex && isNumber(row[column]) } ? .right : .left
        }
        var writer = MarkdownWriter()
        writer.table(header: table.columns, alignments: alignments, rows: table.rows.map { $0.map(\.formatted) })
        return writer.text
    }

    /// Whether a cell holds a number (a count, a measured value or an exact decimal).
    private static func isNumber(_ cell: ReportTable.Cell) -> Bool {
        switch cell {
        case .integer, .decimal, .exact: return true
        case .text, .boolean, .empty: return false
        }
    }

    /// `text` with every control character (line breaks included) as a space.
    private static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.isWhitespace && scalar != " "
    }
}
