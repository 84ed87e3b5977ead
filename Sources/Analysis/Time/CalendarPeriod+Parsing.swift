import CivilTime

extension CalendarPeriod {
    /// Reads a month (`2024-03`) or an ISO 8601 week (`2024-W09`); nil for anything else, such as month 13 or a
    /// week 53 in a year that has 52.
    package init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, let year = Self.digits(parts[0]) else { return nil }
        if parts[1].count == 2, let month = Self.digits(parts[1]), (1...12).contains(month) {
            self.init(.month, containing: CivilDate(year: year, month: month, day: 1).unixMilliseconds)
            return
        }
        guard parts[1].count == 3, parts[1].first == "W", let week = Self.digits(parts[1].dropFirst()), week >= 1
        else { return nil }
        // January 4 is always in week 1; the week asked for is a whole number of weeks later.
        let january4 = CivilDate(year: year, month: 1, day: 4).unixMilliseconds
        let period = CalendarPeriod(.week, containing: january4 + Int64(week - 1) * 7 * Milliseconds.day)
        guard period.year == year, period.number == week else { return nil }
        self = period
    }

    /// The UTC time span a calendar name covers, `[start, end)` in Unix ms: a day (`2024-03-05`), a month
    /// (`2024-03`) or an ISO 8601 week (`2024-W09`). Nil when `text` names none of these.
    package static func span(named text: String) -> Range<Int64>? {
        if let period = CalendarPeriod(parsing: text) { return period.start..<period.end }
        guard let date = CivilDate(parsing: text) else { return nil }
        return date.unixMilliseconds..<(date.unixMilliseconds + Milliseconds.day)
    }

    /// A run of ASCII digits as a number; nil when empty or anything else is in it.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }
}
