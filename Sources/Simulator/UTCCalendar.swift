import CivilTime

/// Calendar arithmetic on Unix milliseconds in UTC, on ``CivilDate``: what the simulator needs to read `--start` and
/// to add months the way the App Store renews monthly and annual subscriptions (same day of the month, clamped to
/// the month's last day).
package enum UTCCalendar {
    /// Midnight UTC of a `YYYY-MM-DD` date, or nil when the text is not such a date.
    package static func startOfDay(_ text: String) -> Int64? {
        CivilDate(parsing: text)?.unixMilliseconds
    }

    /// `millis` plus `months` calendar months, at the same time of day; the day of the month is clamped to the
    /// target month's length (January 31 + 1 month = February 28 or 29).
    package static func adding(months: Int, to millis: Int64) -> Int64 {
        let (days, timeOfDay) = CivilDate.split(unixMilliseconds: millis)
        let date = CivilDate(daysSinceEpoch: days)
        let monthIndex = date.year * 12 + (date.month - 1) + months
        let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let month = monthIndex - year * 12 + 1
        let day = min(date.day, CivilDate.daysInMonth(year: year, month: month))
        return CivilDate(year: year, month: month, day: day).unixMilliseconds + timeOfDay
    }

    /// Whole calendar months from `start` to `millis` (0 in the first month), by calendar month numbers.
    package static func monthsBetween(_ start: Int64, _ millis: Int64) -> Int {
        let from = CivilDate(daysSinceEpoch: CivilDate.split(unixMilliseconds: start).daysSinceEpoch)
        let to = CivilDate(daysSinceEpoch: CivilDate.split(unixMilliseconds: millis).daysSinceEpoch)
        return (to.year - from.year) * 12 + (to.month - from.month)
    }
}
