import Analysis
import CivilTime

/// Unix milliseconds written as UTC calendar text, with integer arithmetic (no Foundation calendars or locales).
package enum UTCTime {
    /// `2024-07-19`: the UTC calendar date of `millis`.
    package static func date(_ millis: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: CivilDate.split(unixMilliseconds: millis).daysSinceEpoch)
        return date.year.zeroPadded(width: 4) + "-" + date.month.zeroPadded(width: 2) + "-"
            + date.day.zeroPadded(width: 2)
    }

    /// `2024-07-19T08:30:00Z` (ISO 8601), with `.123` milliseconds only when they are not 0.
    package static func timestamp(_ millis: Int64) -> String {
        let ofDay = Int(CivilDate.split(unixMilliseconds: millis).millisecondOfDay)  // 0 ..< 86 400 000
        let seconds = ofDay / 1000
        var text =
            date(millis) + "T" + (seconds / 3600).zeroPadded(width: 2) + ":" + (seconds / 60 % 60).zeroPadded(width: 2)
            + ":" + (seconds % 60).zeroPadded(width: 2)
        if ofDay % 1000 != 0 { text += "." + (ofDay % 1000).zeroPadded(width: 3) }
        return text + "Z"
    }

    /// `2024-07-19T08:30:00.000Z` (ISO 8601), always with milliseconds: the times of `open_episodes.csv`.
    package static func timestampWithMilliseconds(_ millis: Int64) -> String {
        let text = timestamp(millis)
        return CivilDate.split(unixMilliseconds: millis).millisecondOfDay % 1000 == 0
            ? String(text.dropLast()) + ".000Z" : text
    }

    /// `2024-07-19 08:30 UTC`: the time for people to read, to the minute. The seconds are cut, not rounded, so
    /// the minute shown never lies after the instant; files for machines keep ``timestamp(_:)``.
    package static func minute(_ millis: Int64) -> String {
        let minutes = Int(CivilDate.split(unixMilliseconds: millis).millisecondOfDay) / 60_000
        return date(millis) + " " + (minutes / 60).zeroPadded(width: 2) + ":" + (minutes % 60).zeroPadded(width: 2)
            + " UTC"
    }
}
