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

    private static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
