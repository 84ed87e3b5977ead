import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// Aligned text, CSV, JSON and Markdown from one table, with awkward values.
@Suite struct TableRendererTests {
    static let table = ReportTable(
        name: "t.csv",
        columns: ["product_id", "episodes", "rate", "revenue"],
        rows: [
            [.text("a|b"), .integer(12), .decimal(0.5, places: 6), .exact(10_980, places: 3)],
            [.text("quote \" and, comma"), .integer(3), .empty, .exact(-5, places: 3)],
            [.text("line\nbreak\tand \u{1B}[31m"), .integer(100), .decimal(-0.0000001, places: 6), .empty],
        ]
    )

    @Test func alignsTextLeftAndNumbersRightWithoutControlCharacters() {
        #expect(
            TableRenderer.render(Self.table, as: .table) == """
                product_id            episodes      rate  revenue
                --------------------  --------  --------  -------
                a|b                         12  0.500000   10.980
                quote " and, comma           3             -0.005
                line break and  [31m       100  0.000000

                """
        )
    }

    @Test func writesCSVAsTheReportFilesDo() {
        #expect(TableRenderer.render(Self.table, as: .csv) == CSVWriter.render(Self.table))
        #expect(
            TableRenderer.render(Self.table, as: .csv).split(separator: "\n")[2]
                == "\"quote \"\" and, comma\",3,,-0.005"
        )
    }

    @Test func writesJSONWithNumbersAsNumbersAndNullForEmpty() throws {
        let text = TableRenderer.render(Self.table, as: .json)
        #expect(
            text.split(separator: "\n")[1]
                == #"  {"product_id": "a|b", "episodes": 12, "rate": 0.500000, "revenue": 10.980},"#
        )
        #expect(text.contains(#""product_id": "line\nbreak\tand \u001b[31m""#))
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(objects.count == 3)
        #expect(objects[1]["product_id"] as? String == "quote \" and, comma")
        #expect(objects[1]["rate"] is NSNull)
        #expect((objects[1]["revenue"] as? NSNumber)?.doubleValue == -0.005)
        #expect(objects[2]["revenue"] is NSNull)
        #expect(objects[2]["rate"] as? NSNumber == 0)
        #expect(TableRenderer.render(ReportTable(name: "e", columns: ["a"]), as: .json) == "[]\n")
    }

    @Test func writesBooleansAsBooleansAndEveryEmptyCellAsNull() throws {
        let table = ReportTable(
            name: "t.csv",
            columns: ["mature", "currency", "offer_type", "episodes"],
            rows: [
                [.boolean(true), .text("EUR"), .integer(1), .integer(1)],
                [.boolean(false), .text(""), .empty, .integer(0)],
            ]
        )
        #expect(
            TableRenderer.render(table, as: .csv) == "mature,currency,offer_type,episodes\ntrue,EUR,1,1\nfalse,,,0\n")
        let text = TableRenderer.render(table, as: .json)
        #expect(
            text == """
                [
                  {"mature": true, "currency": "EUR", "offer_type": 1, "episodes": 1},
                  {"mature": false, "currency": null, "offer_type": null, "episodes": 0}
                ]

                """
        )
        let objects = try JSONValue.objects(text)
        #expect(objects[0]["mature"] == .boolean(true))
        #expect(objects[1]["mature"] == .boolean(false))
        #expect(objects[1]["currency"] == .null)
        // Booleans are text, left-aligned, in the aligned table.
        let aligned = TableRenderer.render(table, as: .table).split(separator: "\n")
        #expect(aligned[2] == "true    EUR                1         1")
    }

    @Test func writesMarkdownWithPipesEscaped() {
        #expect(
            TableRenderer.render(Self.table, as: .markdown) == """
                | product_id | episodes | rate | revenue |
                |---|---:|---:|---:|
                | a\\|b | 12 | 0.500000 | 10.980 |
                | quote " and, comma | 3 |  | -0.005 |
                | line break\tand \u{1B}[31m | 100 | 0.000000 |  |

                """
        )
    }

    @Test func anEmptyTableIsItsHeader() {
        let empty = ReportTable(name: "e", columns: ["cohort", "episodes"])
        #expect(TableRenderer.render(empty, as: .table) == "cohort  episodes\n------  --------\n")
        #expect(TableRenderer.render(empty, as: .csv) == "cohort,episodes\n")
        #expect(TableRenderer.render(empty, as: .markdown) == "| cohort | episodes |\n|---|---|\n")
    }
}
