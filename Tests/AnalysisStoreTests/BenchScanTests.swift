import Foundation
import TestSupport
import Testing

@testable import AnalysisStore

/// `make bench` compares `churn analyze --full` with one ordered scan of what it reads: the scan in
/// `scripts/bench.py` must be the reader's own query, written to /dev/null, or the ratio compares with a cheaper read.
@Suite struct BenchScanTests {
    @Test func theBenchScansWhatTheAnalysisReads() throws {
        let script = try String(
            contentsOf: Repository.root.appendingPathComponent("scripts/bench.py"), encoding: .utf8)
        let start = try #require(script.range(of: "ORDERED_SCAN = (\n"))
        let end = try #require(script.range(of: "\n)\n", range: start.upperBound..<script.endIndex))
        // The block's adjacent string literals, joined as Python joins them.
        let literals = script[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            #expect(
                text.hasPrefix("\"") && text.hasSuffix("\""), "a line of ORDERED_SCAN is not a plain literal: \(text)")
            return text.dropFirst().dropLast()
        }
        let expected = NotificationEventReader.query(.all(asOf: nil))
            .replacingOccurrences(of: "TO STDOUT", with: "TO '/dev/null'")
        #expect(literals.joined() == expected)
    }
}
