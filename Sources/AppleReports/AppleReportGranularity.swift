import Analysis

/// How long a period one line of an App Store Connect report covers: Apple delivers each report as daily, weekly or
/// monthly instances, and "each data batch has a start date, represented by the Date column, and a length of time,
/// represented by `granularity` of the instance" (Apple, *Data Completeness and Corrections*).
package enum AppleReportGranularity: String, Hashable, Sendable, CaseIterable, Comparable {
    /// One UTC day per date.
    case daily
    /// The date is the week's first day (Monday); the line covers that ISO week.
    case weekly
    /// The date is the month's first day; the line covers that UTC calendar month.
    case monthly

    /// `DAILY`, `WEEKLY`, `MONTHLY`, as Apple's instances and their download paths name them; case does not matter.
    package init?(name: String) {
        switch name.lowercased() {
        case "daily": self = .daily
        case "weekly": self = .weekly
        case "monthly": self = .monthly
        default: return nil
        }
    }

    /// The `granularity` of a comparison row: `day`, `week` or `month`.
    package var rowName: String {
        switch self {
        case .daily: return "day"
        case .weekly: return "week"
        case .monthly: return "month"
        }
    }

    package static func < (lhs: AppleReportGranularity, rhs: AppleReportGranularity) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// The first day of the period that holds `day` (days since 1970-01-01): the day itself, its ISO week's Monday, or
    /// its month's first day, as ``CalendarPeriod`` bounds weeks and months everywhere else.
    package func periodStart(containing day: Int) -> Int {
        guard let period = calendarPeriod(containing: day) else { return day }
        return Int(period.start / Milliseconds.day)
    }

    /// The last day of the period that starts at `start`.
    package func periodEnd(startingAt start: Int) -> Int {
        guard let period = calendarPeriod(containing: start) else { return start }
        return Int(period.end / Milliseconds.day) - 1
    }

    /// The week or month that holds `day`; nil for a daily instance.
    private func calendarPeriod(containing day: Int) -> CalendarPeriod? {
        let millis = Int64(day) * Milliseconds.day
        switch self {
        case .daily: return nil
        case .weekly: return CalendarPeriod(.week, containing: millis)
        case .monthly: return CalendarPeriod(.month, containing: millis)
        }
    }
}
