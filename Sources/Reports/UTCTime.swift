import Analysis
import CivilTime

/// Unix milliseconds written as UTC calendar text, with integer arithmetic (no Foundation calendars or locales).
///
/// The files for machines write one or two of these per row (`open_episodes.csv` has 66 144 rows at 10 M
/// notifications), so years 0…9999, every real one, are written digit by digit into one buffer; other years take the
/// general path with their sign and all their digits.
package enum UTCTime {
    /// `2024-07-19`: the UTC calendar date of `millis`.
    package static func date(_ millis: Int64) -> String {
        let date = CivilDate(daysSinceEpoch: CivilDate.split(unixMilliseconds: millis).daysSinceEpoch)
        guard fourDigits.contains(date.year) else {
            return date.year.zeroPadded(width: 4) + "-" + date.month.zeroPadded(width: 2) + "-"
                + date.day.zeroPadded(width: 2)
        }
        return String(unsafeUninitializedCapacity: 10) { text in
            put(date, into: text)
            return 10
        }
    }

    /// `2024-07-19T08:30:00Z` (ISO 8601), with `.123` milliseconds only when they are not 0.
    package static func timestamp(_ millis: Int64) -> String {
        iso8601(millis, alwaysMilliseconds: false)
    }

    /// `2024-07-19T08:30:00.000Z` (ISO 8601), always with milliseconds: the times of `open_episodes.csv`.
    package static func timestampWithMilliseconds(_ millis: Int64) -> String {
        iso8601(millis, alwaysMilliseconds: true)
    }

    /// `2024-07-19 08:30 UTC`: the time for people to read, to the minute. The seconds are cut, not rounded, so
    /// the minute shown never lies after the instant; files for machines keep ``timestamp(_:)``.
    package static func minute(_ millis: Int64) -> String {
        let minutes = Int(CivilDate.split(unixMilliseconds: millis).millisecondOfDay) / 60_000
        return date(millis) + " " + (minutes / 60).zeroPadded(width: 2) + ":" + (minutes % 60).zeroPadded(width: 2)
            + " UTC"
    }

    /// The years written with exactly four digits and no sign.
    private static let fourDigits = 0...9999

    private static func iso8601(_ millis: Int64, alwaysMilliseconds: Bool) -> String {
        let (day, ofDay) = CivilDate.split(unixMilliseconds: millis)  // ofDay: 0 ..< 86 400 000
        let date = CivilDate(daysSinceEpoch: day)
        let (seconds, milliseconds) = Int(ofDay).quotientAndRemainder(dividingBy: 1000)
        let withMilliseconds = alwaysMilliseconds || milliseconds != 0
        guard fourDigits.contains(date.year) else {
            let time =
                (seconds / 3600).zeroPadded(width: 2) + ":" + (seconds / 60 % 60).zeroPadded(width: 2) + ":"
                + (seconds % 60).zeroPadded(width: 2)
            return Self.date(millis) + "T" + time + (withMilliseconds ? "." + milliseconds.zeroPadded(width: 3) : "")
                + "Z"
        }
        let count = withMilliseconds ? 24 : 20
        return String(unsafeUninitializedCapacity: count) { text in
            put(date, into: text)
            text[10] = UInt8(ascii: "T")
            put(seconds / 3600, width: 2, at: 11, into: text)
            text[13] = UInt8(ascii: ":")
            put(seconds / 60 % 60, width: 2, at: 14, into: text)
            text[16] = UInt8(ascii: ":")
            put(seconds % 60, width: 2, at: 17, into: text)
            if withMilliseconds {
                text[19] = UInt8(ascii: ".")
                put(milliseconds, width: 3, at: 20, into: text)
            }
            text[count - 1] = UInt8(ascii: "Z")
            return count
        }
    }

    /// `YYYY-MM-DD` into the first 10 bytes of `text`, for a year of ``fourDigits``.
    private static func put(_ date: CivilDate, into text: UnsafeMutableBufferPointer<UInt8>) {
        put(date.year, width: 4, at: 0, into: text)
        text[4] = UInt8(ascii: "-")
        put(date.month, width: 2, at: 5, into: text)
        text[7] = UInt8(ascii: "-")
        put(date.day, width: 2, at: 8, into: text)
    }

    /// The last `width` decimal digits of `value` (not negative), with leading zeros, at `start`.
    private static func put(_ value: Int, width: Int, at start: Int, into text: UnsafeMutableBufferPointer<UInt8>) {
        var rest = value
        for index in stride(from: start + width - 1, through: start, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
