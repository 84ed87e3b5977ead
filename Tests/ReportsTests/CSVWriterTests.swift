import Reports
import Testing

@Suite struct CSVWriterTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\nend", "\"crlf\r\nend\""),
        ("ünïcödé €", "ünïcödé €"),
        ("semi;colon and space", "semi;colon and space"),
        // A quote followed by a combining accent is one Character, but still a quote byte.
        ("\"\u{301}", "\"\"\"\u{301}\""),
    ])
    func quotesFieldsThatNeedIt(value: String, field: String) {
        #expect(CSVWriter.field(value) == field)
    }

    @Test func rendersHeaderRowsAndTypedCells() {
        let table = ReportTable(
            name: "example.csv",
            columns: ["name", "count", "rate", "revenue", "note"],
            rows: [
                [.text("a,b"), .integer(3), .decimal(0.5, places: 6), .exact(10_980, places: 3), .empty],
                [.text("(all)"), .integer(0), .ratio(0, 0), .exact(0, places: 3), .text("x\ny")],
            ]
        )
        #expect(
            CSVWriter.render(table)
                == """
                name,count,rate,revenue,note
                "a,b",3,0.500000,10.980,
                (all),0,,0.000,"x
                y"

                """
        )
    }

    @Test func writesToAnyTextOutputStream() {
        var output = "existing\n"
        CSVWriter.write(ReportTable(name: "t.csv", columns: ["check", "count"]), to: &output)
        #expect(output == "existing\ncheck,count\n")
    }
}
