/// Time spans in Unix milliseconds, the unit of every timestamp the analyzers see.
package enum Milliseconds {
    package static let hour: Int64 = 3_600_000
    package static let day: Int64 = 86_400_000

    /// `end − start`, never below 0, saturating instead of overflowing on absurd timestamps.
    package static func elapsed(from start: Int64, to end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        if overflow { return end > start ? Int64.max : 0 }
        return max(0, difference)
    }
}
