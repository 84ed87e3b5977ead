/// Builds a Markdown document block by block: headings, paragraphs, lists, tables and images.
///
/// Blocks are separated by one blank line; lines end in `\n`. Table cells are escaped with `escape(_:)`: a `|`
/// becomes `\|` and every line break becomes a space, so a value cannot break the table. Other text is written
/// as given; pass values that come from data through `escape(_:)`.
package struct MarkdownWriter: Sendable {
    /// How a table column is aligned.
    package enum Alignment: Sendable {
        case left
        case right
    }

    /// The document so far.
    package private(set) var text = ""

    package init() {}

    /// `#`-style heading; `level` is clamped to 1…6.
    package mutating func heading(_ title: String, level: Int = 2) {
        block(String(repeating: "#", count: min(6, max(1, level))) + " " + Self.escape(title))
    }

    /// A paragraph of Markdown text.
    package mutating func paragraph(_ markdown: String) {
        block(markdown)
    }

    /// A bulleted list, one item per entry (line breaks inside an item become spaces).
    package mutating func bulletList(_ items: [String]) {
        guard !items.isEmpty else { return }
        block(items.map { "- " + Self.oneLine($0) }.joined(separator: "\n"))
    }

    /// A table; every cell is escaped. Rows shorter than the header are padded with empty cells.
    ///
    /// - Parameters:
    ///   - header: the column titles.
    ///   - alignments: per column; missing entries are `left`.
    ///   - rows: the cells, as text.
    package mutating func table(header: [String], alignments: [Alignment] = [], rows: [[String]]) {
        var lines = [Self.row(header)]
        let rules = header.indices.map { index in
            (index < alignments.endIndex ? alignments[index] : .left) == .right ? "---:" : "---"
        }
        lines.append("|" + rules.joined(separator: "|") + "|")
        for cells in rows {
            let padded = cells + Array(repeating: "", count: max(0, header.count - cells.count))
            lines.append(Self.row(padded))
        }
        block(lines.joined(separator: "\n"))
    }

    /// An image on a line of its own, `![alt](path)`.
    package mutating func image(alt: String, path: String) {
        block("![" + Self.escape(alt) + "](" + path + ")")
    }

    /// Appends the document to `output`.
    package func write<Output: TextOutputStream>(to output: inout Output) {
        output.write(text)
    }

    /// Text made safe for a table cell or a heading: `|` as `\|`, each line break (LF, CR, CRLF, …) as a space.
    package static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value {
            if character == "|" {
                escaped += "\\|"
            } else if character.isNewline {
                escaped += " "
            } else {
                escaped.append(character)
            }
        }
        return escaped
    }

    private static func oneLine(_ value: String) -> String {
        String(value.map { $0.isNewline ? " " : $0 })
    }

    private static func row(_ cells: [String]) -> String {
        "| " + cells.map(escape).joined(separator: " | ") + " |"
    }

    private mutating func block(_ markdown: String) {
        if !text.isEmpty { text += "\n" }
        text += markdown + "\n"
    }
}
