import Analysis

/// Calendar arithmetic on Unix milliseconds in UTC, with integer civil-date functions (H. Hinnant's algorithms):
/// what the simulator needs to read `--start` and to add months the way the App Store renews monthly and annual
/// subscriptions (same day of the month, clamped to the month's last day).
package enum UTCCalendar {
    /// Midnight UTC of a `YYYY-MM-DD` date, or nil when the text is not such a date.
    package static func startOfDay(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return Int64(daysSinceEpoch(year: year, month: month, day: day)) * Milliseconds.day
    }

    /// `millis` plus `months` calendar months, at the same time of day; the day of the month is clamped to the
    /// target month's length (January 31 + 1 month = February 28 or 29).
    package static func adding(months: Int, to millis: Int64) -> Int64 {
        let (days, timeOfDay) = splitDays(millis)
        let date = civilDate(daysSinceEpoch: days)
        let monthIndex = date.year * 12 + (date.month - 1) + months
        let year = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let month = monthIndex - year * 12 + 1
        let day = min(date.day, daysInMonth(year: year, month: month))
        return Int64(daysSinceEpoch(year: year, month: month, day: day)) * Milliseconds.day + timeOfDay
    }

    /// Whole calendar months from `start` to `millis` (0 in the first month), by calendar month numbers.
    package static func monthsBetween(_ start: Int64, _ millis: Int64) -> Int {
        let from = civilDate(daysSinceEpoch: splitDays(start).days)
        let to = civilDate(daysSinceEpoch: splitDays(millis).days)
        return (to.year - from.year) * 12 + (to.month - from.month)
    }

    private static func splitDays(_ millis: Int64) -> (days: Int, timeOfDay: Int64) {
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: Milliseconds.day)
        return remainder < 0 ? (Int(quotient - 1), remainder + Milliseconds.day) : (Int(quotient), remainder)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The proleptic Gregorian date of a day number: the one algorithm the metrics use too.
    private static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        CalendarPeriod.civilDate(daysSinceEpoch: days)
    }

    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        CalendarPeriod.daysSinceEpoch(year: year, month: month, day: day)
    }
}
