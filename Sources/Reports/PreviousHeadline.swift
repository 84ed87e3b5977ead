import Analysis

/// The previous report's `headline.json`, in the format it was written in, for "Changes since the previous
/// report".
///
/// Format 2 (``Headline/currentFormat``) follows METRICS.md version 2, like this report, so every figure compares.
/// Format 1 was written under the earlier definitions: its episodes were built by other rules (phantom episodes
/// from late failure notices, no end at day 60, no new purchases), so its episode counts, rates and amounts mean
/// something else. Only what both versions define alike is read from it: its as-of time, its environment and the
/// counts of the notification filters and of rejected inputs (``Earlier/comparableChecks``).
package enum PreviousHeadline: Hashable, Sendable {
    /// Written by this version: every figure compares.
    case current(Headline)
    /// Written under the earlier definitions (format 1).
    case earlier(Earlier)

    /// What a format-1 snapshot still says in the same words as this version.
    package struct Earlier: Decodable, Hashable, Sendable {
        /// The data-quality checks whose meaning did not change: the filters of METRICS.md's "Which notifications
        /// count"; rejected inputs (`rejected_<reason>`) compare too. `duplicates_skipped` is not among them: it
        /// counts further copies by their signed date since version 2.1.
        package static let comparableChecks = ["outside_environment", "family_shared_skipped"]

        package var format: Int
        /// The report's as-of time (Unix ms).
        package var asOf: Int64
        package var environment: String
        /// Its `data_quality.csv` rows, all of them (compare only ``isComparable(_:)`` ones).
        package var dataQuality: [Headline.Check]

        package init(format: Int = 1, asOf: Int64, environment: String, dataQuality: [Headline.Check] = []) {
            self.format = format
            self.asOf = asOf
            self.environment = environment
            self.dataQuality = dataQuality
        }

        /// Whether a data-quality check means the same under both definitions.
        package static func isComparable(_ check: String) -> Bool {
            comparableChecks.contains(check) || check.hasPrefix("rejected_")
        }

        /// The count of a data-quality check; 0 when the snapshot does not list it.
        package func count(of check: String) -> Int {
            dataQuality.first { $0.check == check }?.count ?? 0
        }

        enum CodingKeys: String, CodingKey {
            case format
            case asOf = "as_of"
            case environment
            case dataQuality = "data_quality"
        }
    }

    /// The `format` of the snapshot.
    package var format: Int {
        switch self {
        case .current(let headline): headline.format
        case .earlier(let earlier): earlier.format
        }
    }

    /// The previous report's as-of time (Unix ms).
    package var asOf: Int64 {
        switch self {
        case .current(let headline): headline.asOf
        case .earlier(let earlier): earlier.asOf
        }
    }

    package var environment: String {
        switch self {
        case .current(let headline): headline.environment
        case .earlier(let earlier): earlier.environment
        }
    }

    /// The database the previous report was made from; nil when it does not say (format 1 never does).
    package var databaseID: String? {
        switch self {
        case .current(let headline): headline.databaseID
        case .earlier: nil
        }
    }

    /// True when the previous report's as-of time was asked for by hand; nil when it does not say (snapshots written
    /// before reports recorded it, format 1 among them).
    package var asOfGiven: Bool? {
        switch self {
        case .current(let headline): headline.asOfGiven
        case .earlier: nil
        }
    }

    /// The previous report's cohort granularity; nil when it does not say.
    package var granularity: CalendarPeriod.Granularity? {
        switch self {
        case .current(let headline): headline.granularity
        case .earlier: nil
        }
    }
}
