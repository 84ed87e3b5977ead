import CivilTime

/// A UTC calendar month (`YYYY-MM`) or ISO 8601 week (`YYYY-Www`), computed from Unix milliseconds
/// with integer civil-date arithmetic (no Foundation calendars, so it is cheap in loops).
package struct CalendarPeriod: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// How finely time is grouped into cohorts.
    package enum Granularity: String, Codable, Hashable, Sendable, CaseIterable {
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
        let days = CivilDate.split(unixMilliseconds: millis).daysSinceEpoch
        self.granularity = granularity
        switch granularity {
        case .month:
            let date = CivilDate(daysSinceEpoch: days)
            year = date.year
            number = date.month
        case .week:
            // ISO weekday, Monday = 1 … Sunday = 7; 1970-01-01 was a Thursday.
            let weekday = Self.flooredRemainder(days + 3, 7) + 1
            let thursday = days - weekday + 4
            let isoYear = CivilDate(daysSinceEpoch: thursday).year
            year = isoYear
            number = (thursday - CivilDate(year: isoYear, month: 1, day: 1).daysSinceEpoch) / 7 + 1
        }
    }

    /// The UTC calendar month that contains `millis`.
    package init(monthContaining millis: Int64) {
        self.init(.month, containing: millis)
    }

    /// `2024-03` for months, `2024-W09` for weeks.
    package var description: String {
        // Written digit by digit for the years 0–9999 (one per renewal row a full analysis stores); the general
        // form below gives the same text.
        if (0...9999).contains(year), (0...99).contains(number) {
            let week = granularity == .week
            return String(unsafeUninitializedCapacity: week ? 8 : 7) { text in
                let zero = UInt8(ascii: "0")
                text[0] = zero + UInt8(year / 1000)
                text[1] = zero + UInt8(year / 100 % 10)
                text[2] = zero + UInt8(year / 10 % 10)
                text[3] = zero + UInt8(year % 10)
                text[4] = UInt8(ascii: "-")
                var end = 5
                if week {
                    text[5] = UInt8(ascii: "W")
                    end = 6
                }
                text[end] = zero + UInt8(number / 10)
                text[end + 1] = zero + UInt8(number % 10)
                return end + 2
            }
        }
        switch granularity {
        case .month: return year.zeroPadded(width: 4) + "-" + number.zeroPadded(width: 2)
        case .week: return year.zeroPadded(width: 4) + "-W" + number.zeroPadded(width: 2)
        }
    }

    /// Chronological within one granularity (months before weeks when the two are mixed).
    package static func < (lhs: CalendarPeriod, rhs: CalendarPeriod) -> Bool {
        (lhs.granularity.rawValue, lhs.year, lhs.number) < (rhs.granularity.rawValue, rhs.year, rhs.number)
    }

    /// The remainder of floored division: always in `0..<divisor` for a positive divisor.
    private static func flooredRemainder(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
