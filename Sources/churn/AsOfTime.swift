import ArgumentParser
import CivilTime

/// Reads `--as-of` values into Unix milliseconds: exactly a UTC day, an ISO 8601 instant with its zone, or Unix
/// milliseconds in a plausible range. Anything else is refused with an example of each form.
enum AsOfTime {
    /// The forms, for messages and help.
    static let forms =
        "a day (2026-11-20: the end of that day, UTC), an ISO 8601 instant with its zone "
        + "(2026-11-20T12:00:00Z, 2026-11-20T14:00+02:00) or Unix milliseconds (1763640000000)"

    /// Unix milliseconds from 2008-01-01 to 2100-01-01: the App Store opened in 2008; a count of seconds
    /// (ten digits today) falls below this range instead of meaning a day in January 1970.
    static let plausibleMilliseconds: ClosedRange<Int64> = 1_199_145_600_000...4_102_444_800_000

    /// The instant `text` names.
    /// - Throws: `ValidationError` (bad usage, 64) saying what is wrong and what is accepted.
    static func parse(_ text: String, option: String = "--as-of") throws(ValidationError) -> Int64 {
        func refuse(_ why: String) -> ValidationError {
            ValidationError("\(option) \(text): \(why); expected \(forms).")
        }
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let milliseconds = Int64(text) else { throw refuse("too large a number") }
            if (1_000_000_000...9_999_999_999).contains(milliseconds) {
                throw refuse("this looks like Unix seconds; give milliseconds (\(text)000)")
            }
            guard plausibleMilliseconds.contains(milliseconds) else {
                throw refuse("Unix milliseconds out of the range 2008–2100")
            }
            return milliseconds
        }
        if let day = CivilDate(parsing: text) {
            // A day means the end of that day (UTC): its notifications count.
            return day.unixMilliseconds + CivilDate.millisecondsPerDay - 1
        }
        guard text.utf8.contains(UInt8(ascii: "T")) else { throw refuse("not a valid day") }
        guard let instant = instant(text) else { throw refuse("not a valid ISO 8601 instant with a zone") }
        return instant
    }

    /// `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `±HH:MM` (`±HHMM`), each field in its range; the
    /// fraction is cut to milliseconds.
    private static func instant(_ text: String) -> Int64? {
        let pattern =
            /([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?(Z|[+-][0-9]{2}:?[0-9]{2})/
        guard let match = text.wholeMatch(of: pattern),
            let day = CivilDate(parsing: String(match.1)),
            let hour = Int(match.2), hour < 24,
            let minute = Int(match.3), minute < 60
        else { return nil }
        let second = match.4.flatMap { Int($0) } ?? 0
        guard second < 60 else { return nil }
        var milliseconds = day.unixMilliseconds + Int64(((hour * 60) + minute) * 60 + second) * 1000
        if let fraction = match.5 {
            milliseconds += Int64(String((fraction + "00").prefix(3))) ?? 0
        }
        let zone = match.6
        if zone != "Z" {
            let digits = zone.dropFirst().filter { $0 != ":" }
            guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)),
                hours < 24, minutes < 60
            else { return nil }
            let offset = Int64((hours * 60 + minutes) * 60_000)
            milliseconds += zone.hasPrefix("+") ? -offset : offset
        }
        return milliseconds
    }
}
