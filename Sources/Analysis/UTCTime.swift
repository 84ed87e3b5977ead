/// Unix milliseconds written as UTC calendar text, with integer arithmetic (no Foundation calendars or locales).
package enum UTCTime {
    /// `2024-07-19`: the UTC calendar date of `millis`.
    package static func date(_ millis: Int64) -> String {
        let days = CalendarPeriod.daysSinceEpoch(millis)
        let date = CalendarPeriod.civilDate(daysSinceEpoch: days)
        return padded(date.year, 4) + "-" + padded(date.month, 2) + "-" + padded(date.day, 2)
    }

    /// `2024-07-19T08:30:00Z` (ISO 8601), with `.123` milliseconds only when they are not 0.
    package static func timestamp(_ millis: Int64) -> String {
        let remainder = millis % Milliseconds.day
        let ofDay = Int(remainder < 0 ? remainder + Milliseconds.day : remainder)  // 0 ..< 86 400 000
        let seconds = ofDay / 1000
        var text =
            date(millis) + "T" + padded(seconds / 3600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":"
            + padded(seconds % 60, 2)
        if ofDay % 1000 != 0 { text += "." + padded(ofDay % 1000, 3) }
        return text + "Z"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
