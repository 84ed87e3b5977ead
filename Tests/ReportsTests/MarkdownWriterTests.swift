import Foundation
import Reports
import Testing

@Suite struct MarkdownWriterTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("a|b", "a\\|b"),
        ("||", "\\|\\|"),
        ("line\nbreak", "line break"),
        ("crlf\r\nbreak", "crlf break"),
        ("cr\rbreak", "cr break"),
        ("two\n\nbreaks", "two  breaks"),
        ("|\n|", "\\| \\|"),
        ("unicode\u{2028}separator", "unicode separator"),
        ("", ""),
    ])
    func escapesCells(input: String, expected: String) {
        #expect(MarkdownWriter.escape(input) == expected)
    }

    @Test func tableEscapesEveryCellAndPadsShortRows() {
        var writer = MarkdownWriter()
        writer.table(
            header: ["Product", "Episodes"], alignments: [.left, .right],
            rows: [["com.example|annual", "3"], ["multi\nline"], ["x"]])
        #expect(
            writer.text == """
                | Product | Episodes |
                |---|---:|
                | com.example\\|annual | 3 |
                | multi line |  |
                | x |  |

                """)
    }

    @Test func blocksAreSeparatedByOneBlankLine() {
        var writer = MarkdownWriter()
        writer.heading("Title | with pipe", level: 1)
        writer.paragraph("Text.")
        writer.bulletList(["one", "two\nlines"])
        writer.bulletList([])
        writer.image(alt: "Recovery curve", path: "recovery_curve.svg")
        writer.heading("Deep", level: 9)
        #expect(
            writer.text == """
                # Title \\| with pipe

                Text.

                - one
                - two lines

                ![Recovery curve](recovery_curve.svg)

                ###### Deep

                """)
        var output = ""
        writer.write(to: &output)
        #expect(output == writer.text)
    }

    @Test func summaryEscapesDataInItsTables() throws {
        let summary = try #require(try Sample.report().files().first { $0.name == "summary.md" }).contents
        #expect(summary.contains("| com.example.annual\\|promo,2024 | 2 | 0 | 2 |"))
        #expect(!summary.contains("annual|promo"))
        // Every table row has as many unescaped `|` as its header.
        var columns: Int?
        for line in summary.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            let pipes = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            if let columns { #expect(pipes == columns, "\(line)") } else { columns = pipes }
        }
    }

    @Test func environmentWithLineBreaksStaysOnTheTitleLine() throws {
        let report = Report(
            dataset: Sample.dataset(), options: .init(environment: "Pro|duction\nX", rejections: [:]))
        let summary = SummaryDocument(report: report).markdown
        #expect(summary.hasPrefix("# Involuntary churn: Pro\\|duction X, as of 2024-07-01 00:00 UTC\n\n"))
    }
}
