import CivilTime
import Foundation

/// One fetched range of the notification history as `fetch_checkpoints` records it.
package struct FetchCheckpoint: Sendable, Equatable {
    package var id: Int64
    package var scope: HistoryScope
    /// The range, Unix milliseconds: `[startDate, endDate)`.
    package var startDate: Int64
    package var endDate: Int64
    /// The exports directory its files go to, absolute.
    package var directory: String
    /// `running`, `failed`, `succeeded` or `abandoned`.
    package var status: String
    /// The token of the next page to request; nil for the range's first page, and once the last page is kept.
    package var paginationToken: String?
    /// Whether the range's last page is kept (the file may still need its rename and the row its status).
    package var hasLastPage: Bool
    package var pages: Int
    package var notifications: Int64
    package var malformedPages: Int
    /// The file being written: its part number, the pages and notifications in it, its length after the last kept
    /// page, and the token its first page was requested with.
    package var filePart: Int
    package var partPages: Int
    package var partNotifications: Int64
    package var partBytes: Int64
    package var partStartToken: String?

    /// The name of a complete file of this range: `history-<start day>-<end day>-<id>-<part>.jsonl.gz`, days as
    /// `YYYYMMDD` in UTC, so a directory's files sort by the start of their range.
    package func fileName(part: Int) -> String {
        "history-\(Self.day(startDate))-\(Self.day(endDate))-\(id)-\(String(format: "%03d", part)).jsonl.gz"
    }

    /// The name of that file while it is written: hidden, and with a suffix no export pattern matches, so neither
    /// `churn load` of the directory nor `churn nightly` ever reads it half written.
    package func partialFileName(part: Int) -> String {
        "." + fileName(part: part) + ".partial"
    }

    private static func day(_ milliseconds: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: CivilDate.split(unixMilliseconds: milliseconds).daysSinceEpoch)
        return String(format: "%04d%02d%02d", date.year, date.month, date.day)
    }
}
