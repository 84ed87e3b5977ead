import Analysis
import Foundation
import Reports
import Testing

@Suite struct ReportCellTests {
    static let cases: [(ReportTable.Cell, String)] = [
        (.integer(42), "42"),
        (.integer(-7), "-7"),
        (.decimal(1.0 / 3, places: 6), "0.333333"),
        (.decimal(2.0 / 3, places: 6), "0.666667"),
        (.decimal(0, places: 6), "0.000000"),
        (.decimal(-0.0, places: 6), "0.000000"),
        (.decimal(-0.0000001, places: 6), "0.000000"),
        (.decimal(-0.25, places: 6), "-0.250000"),
        (.decimal(1, places: 6), "1.000000"),
        (.decimal(338.0 / 24, places: 4), "14.0833"),
        (.decimal(1000.0 / 15, places: 2), "66.67"),
        (.decimal(.nan, places: 6), ""),
        (.decimal(.infinity, places: 6), ""),
        (.exact(9990 + 990, places: 3), "10.980"),
        (.exact(5, places: 3), "0.005"),
        (.exact(120_000, places: 3), "120.000"),
        (.exact(-1500, places: 3), "-1.500"),
        (.exact(Int64.min, places: 3), "-9223372036854775.808"),
        (.exact(7, places: 0), "7"),
        (.text("2024-03"), "2024-03"),
        (.empty, ""),
    ]

    @Test(arguments: cases)
    func formats(cell: ReportTable.Cell, text: String) {
        #expect(cell.formatted == text)
    }

    @Test func ratioIsEmptyForZeroDenominator() {
        #expect(ReportTable.Cell.ratio(1, 0) == .empty)
        #expect(ReportTable.Cell.ratio(0, 4).formatted == "0.000000")
        #expect(ReportTable.Cell.ratio(3, 13).formatted == "0.230769")
    }

    @Test func optionalDecimalIsEmptyWhenUndefined() {
        #expect(ReportTable.Cell.decimal(ifDefined: nil, places: 6) == .empty)
        #expect(ReportTable.Cell.decimal(ifDefined: 0.5, places: 6).formatted == "0.500000")
    }

    /// A decimal cell is written as `String(format: "%.*f")` writes it, sign of a zero aside: across magnitudes
    /// from 1e-12 to 1e300 (beyond the 64 bytes written at first), negative values, every number of places a report
    /// uses and more, and values half-way between two results.
    @Test func decimalsAreWrittenAsPrintfWritesThem() {
        var random = SplitMix64(seed: 0xCE11)
        var values: [Double] = [0.5, 1.5, 2.5, 0.125, 0.0000005, 0.0000015, 1e300, -1e300, 123_456_789.987_654_3]
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double(Int64.random(in: -12...300, using: &random)))
            values.append((random.nextUnit() - 0.5) * 2 * magnitude)
            values.append(Double(Int64.random(in: 0...2_000_000, using: &random)) / 1000 + 0.0005)
        }
        for (index, value) in values.enumerated() {
            let places = [0, 2, 3, 4, 6, 9][index % 6]
            var expected = String(format: "%.\(places)f", value)
            if expected.hasPrefix("-"), Double(expected) == 0 { expected.removeFirst() }
            #expect(ReportTable.Cell.decimal(value, places: places).formatted == expected, "\(value), \(places)")
        }
    }
}
