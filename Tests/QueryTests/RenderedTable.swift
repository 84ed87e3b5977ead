import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// Reads a rendered table back, to check that every format shows the figures it was given.
enum RenderedTable {
    /// Checks that `table`, rendered in `format`, shows exactly `columns` and `rows`.
    static func expect(
        _ table: ReportTable,
        as format: TableRenderer.Format,
        columns: [String],
        rows: [[ReportTable.Cell]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let text = TableRenderer.render(table, as: format)
        #expect(text.hasSuffix("\n"), sourceLocation: sourceLocation)
        switch format {
        case .json:
            try expectJSON(text, columns: columns, rows: rows, sourceLocation: sourceLocation)
        case .csv, .markdown, .table:
            let parsed = try cells(text, format: format)
            #expect(parsed.first == columns, "\(format) header", sourceLocation: sourceLocation)
            #expect(
                Array(parsed.dropFirst()) == rows.map { $0.map(\.formatted) }, "\(format) rows",
                sourceLocation: sourceLocation
            )
        }
    }

    /// The header and rows of CSV, Markdown or aligned text, as the strings shown.
    static func cells(_ text: String, format: TableRenderer.Format) throws -> [[String]] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        switch format {
        case .csv:
            return lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        case .markdown:
            let rows = [lines[0]] + lines.dropFirst(2)
            return rows.map { line in
                String(line.dropFirst(2).dropLast(2)).components(separatedBy: " | ")
            }
        case .table:
            // The rule of dashes under the header marks each column's span.
            let rule = Array(try #require(lines.dropFirst().first))
            var spans: [Range<Int>] = []
            var index = 0
            while index < rule.count {
                guard rule[index] == "-" else {
                    index += 1
                    continue
                }
                let start = index
                while index < rule.count, rule[index] == "-" { index += 1 }
                spans.append(start..<index)
            }
            return ([lines[0]] + lines.dropFirst(2)).map { line in
                let characters = Array(line)
                return spans.map { span in
                    let slice = characters[
                        min(span.lowerBound, characters.count)..<min(span.upperBound, characters.count)]
                    return String(slice).trimmingCharacters(in: .whitespaces)
                }
            }
        case .json:
            throw RenderingError(message: "JSON is read with expectJSON")
        }
    }

    private static func expectJSON(
        _ text: String,
        columns: [String],
        rows: [[ReportTable.Cell]],
        sourceLocation: SourceLocation
    ) throws {
        let objects = try JSONValue.objects(text)
        #expect(objects.count == rows.count, "JSON rows", sourceLocation: sourceLocation)
        for (object, row) in zip(objects, rows) {
            #expect(Set(object.keys) == Set(columns), sourceLocation: sourceLocation)
            for (column, cell) in zip(columns, row) {
                #expect(object[column] == json(cell), "\(column)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The JSON value a cell must be: numbers as numbers, yes or no as booleans, text as strings, and `null` for
    /// whatever is empty in the CSV.
    static func json(_ cell: ReportTable.Cell) -> JSONValue {
        switch cell {
        case .integer(let value): return .number(Double(value))
        case .decimal, .exact: return Double(cell.formatted).map { .number($0) } ?? .null
        case .text(let value): return value.isEmpty ? .null : .string(value)
        case .boolean(let value): return .boolean(value)
        case .empty: return .null
        }
    }
}

struct RenderingError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
