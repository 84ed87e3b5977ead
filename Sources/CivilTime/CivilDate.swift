/// A day of the proleptic Gregorian calendar, and the integer arithmetic between such days, day numbers (whole days
/// since 1970-01-01) and Unix milliseconds in UTC.
///
/// Howard Hinnant's `days_from_civil` and `civil_from_days`: no Foundation calendar, time zone or locale, so the
/// results are the same everywhere and cheap in loops over millions of timestamps. The one implementation for the
/// libpq wrapper's timestamps, the metrics' cohorts and the simulator's calendar.
package struct CivilDate: Hashable, Sendable {
    package var year: Int
    /// 1…12.
    package var month: Int
    /// 1…31.
    package var day: Int

    /// The milliseconds of one day.
    package static let millisecondsPerDay: Int64 = 86_400_000

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of day number `days` (Hinnant's `civil_from_days`).
    package init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// A `YYYY-MM-DD` date that exists (four, two and two ASCII digits; no February 30); nil for anything else.
    package init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...Self.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day number of this date (Hinnant's `days_from_civil`). A day beyond its month's length counts on into
    /// the next month.
    package var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Midnight UTC of this date, in Unix milliseconds.
    package var unixMilliseconds: Int64 {
        Int64(daysSinceEpoch) * Self.millisecondsPerDay
    }

    /// The number of days of `month` (1…12) in `year`.
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// An instant in Unix milliseconds as its UTC day number and the milliseconds since that day's midnight
    /// (`0..<86_400_000`): floored division, so instants before 1970 fall on the day they belong to.
    package static func split(unixMilliseconds: Int64) -> (daysSinceEpoch: Int, millisecondOfDay: Int64) {
        let (quotient, remainder) = unixMilliseconds.quotientAndRemainder(dividingBy: millisecondsPerDay)
        return remainder < 0 ? (Int(quotient - 1), remainder + millisecondsPerDay) : (Int(quotient), remainder)
    }
}
