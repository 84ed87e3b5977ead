import Foundation
import HistoryFetch

/// What a history fetch got, as people read it.
enum FetchReport {
    /// One line per range, its files indented below, and the malformed pages kept.
    static func render(_ ranges: [FetchedRange]) -> String {
        var lines: [String] = []
        for range in ranges {
            var line =
                "history \(HistoryRangeOptions.text(range.startDate)) to \(HistoryRangeOptions.text(range.endDate)): "
                + "\(range.pages) page(s), \(range.notifications) notification(s), \(range.files.count) file(s)"
            if range.resumedAfterPages > 0 { line += " (resumed after page \(range.resumedAfterPages))" }
            if range.restarted { line += " (started over from the first page)" }
            lines.append(line)
            lines += range.files.map { "  \($0)" }
            if !range.malformedPages.isEmpty {
                lines.append(
                    "  \(range.malformedPages.count) malformed page(s) kept in quarantine and requested again:")
                lines += range.malformedPages.map { "    \($0)" }
            }
        }
        if ranges.isEmpty { lines.append("nothing to fetch: the history is fetched up to now") }
        return lines.joined(separator: "\n")
    }
}
