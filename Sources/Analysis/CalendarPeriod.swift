/// A UTC calendar month (`YYYY-MM`) or ISO 8601 week (`YYYY-Www`), computed from Unix milliseconds
/// with integer civil-date arithmetic (no Foundation calendars, so it is cheap in loops).
package struct CalendarPeriod: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// How finely time is grouped into cohorts.
    package enum Granularity: String, Hashable, Sendable, CaseIterable {
        /// UTC calendar months, `2024-03`.
        case month
        /// ISO 8601 weeks (Monday to Sunday, week 1 holds the year's first Thursday), `2024-W09`.
        case week
    }

    package let granularity: Granularity
    /// The calendar year, or for weeks the ISO week-numbering year.
    package let year: Int
    /// The month (1…12) or the ISO week (1…53).
    package let number: Int

    /// The period of `granularity` that contains the instant `millis`.
    package init(_ granularity: Granularity, containing millis: Int64) {
        let days = Self.daysSinceEpoch(millis)
        self.granularity = granularity
        switch granularity {
        case .month:
            let date = Self.civilDate(daysSinceEpoch: days)
            year = date.year
            number = date.month
        case .week:
            // ISO weekday, Monday = 1 … Sunday = 7; 1970-01-01 was a Thursday.
            let weekday = Self.flooredRemainder(days + 3, 7) + 1
            let thursday = days - weekday + 4
            let isoYear = Self.civilDate(daysSinceEpoch: thursday).year
            year = isoYear
            number = (thursday - Self.daysSinceEpoch(year: isoYear, month: 1, day: 1)) / 7 + 1
        }
    }

    /// The UTC calendar month that contains `millis`.
    package init(monthContaining millis: Int64) {
        self.init(.month, containing: millis)
    }

    /// `2024-03` for months, `2024-W09` for weeks.
    package var description: String {
        switch granularity {
        case .month: return Self.padded(year, width: 4) + "-" + Self.padded(number, width: 2)
        case .week: return Self.padded(year, width: 4) + "-W" + Self.padded(number, width: 2)
        }
    }

    /// Chronological within one granularity (months before weeks when the two are mixed).
    package static func < (lhs: CalendarPeriod, rhs: CalendarPeriod) -> Bool {
        (lhs.granularity.rawValue, lhs.year, lhs.number) < (rhs.granularity.rawValue, rhs.year, rhs.number)
    }

    /// Whole days since 1970-01-01, rounding towards the past.
    static func daysSinceEpoch(_ millis: Int64) -> Int {
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: 86_400_000)
        return Int(remainder < 0 ? quotient - 1 : quotient)
    }

    /// The proleptic Gregorian date of a day number (H. Hinnant's `civil_from_days`).
    package static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
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

    /// The day number of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The remainder of floored division: always in `0..<divisor` for a positive divisor.
    private static func flooredRemainder(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }

    private static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}
