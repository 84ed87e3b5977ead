/// What one fetch did to one range of the notification history.
package struct FetchedRange: Sendable {
    /// The range's `fetch_checkpoints` row.
    package var checkpointID: Int64
    /// The range, Unix milliseconds: `[startDate, endDate)`.
    package var startDate: Int64
    package var endDate: Int64
    /// Pages the range had kept before this run (0 for a new range): where this run resumed.
    package var resumedAfterPages: Int
    /// Pages and notifications this run kept.
    package var pages = 0
    package var notifications: Int64 = 0
    /// All the range's pages and notifications, this run's and earlier runs'.
    package var totalPages = 0
    package var totalNotifications: Int64 = 0
    /// Files this run completed (final paths).
    package var files: [String] = []
    /// Malformed answers this run kept under `quarantine/` (each was requested again).
    package var malformedPages: [String] = []
    /// Whether the range started over from its first page (a pagination token Apple refused, or a file that was lost).
    package var restarted = false

    package init(checkpointID: Int64, startDate: Int64, endDate: Int64, resumedAfterPages: Int) {
        self.checkpointID = checkpointID
        self.startDate = startDate
        self.endDate = endDate
        self.resumedAfterPages = resumedAfterPages
    }
}
