/// Instants written as text: an ISO 8601 date-time with its zone, or Unix milliseconds in a plausible range. The
/// one reader of both, for the times users give on the command line and the times of an app's message log.
package enum InstantText {
    /// Unix milliseconds from 2008-01-01 to 2100-01-01: the App Store opened in 2008; a count of seconds
    /// (ten digits today) falls below this range instead of meaning a day in January 1970.
    package static let plausibleMilliseconds: ClosedRange<Int64> = 1_199_145_600_000...4_102_444_800_000

    /// Ten-digit numbers: Unix seconds from 2001 to 2286, which a message reads as seconds given for milliseconds.
    package static let likelySeconds: ClosedRange<Int64> = 1_000_000_000...9_999_999_999

    /// What a text of digits names as Unix milliseconds.
    package enum Milliseconds: Equatable, Sendable {
        case instant(Int64)
        /// Ten digits: Unix seconds, most likely.
        case seconds
        /// Outside ``plausibleMilliseconds``, or too large for 64 bits.
        case outOfRange
    }

    /// Whether `text` is ASCII digits only (and not empty): the form of Unix milliseconds.
    package static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Reads a text of digits (``isDigits(_:)``) as Unix milliseconds.
    package static func milliseconds(digits text: some StringProtocol) -> Milliseconds {
        guard let value = Int64(text) else { return .outOfRange }
        if likelySeconds.contains(value) { return .seconds }
        return plausibleMilliseconds.contains(value) ? .instant(value) : .outOfRange
    }

    /// `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `±HH:MM` (`±HHMM`), each field in its range, as Unix
    /// milliseconds; the fraction is cut to milliseconds. Nil for any other text.
    package static func milliseconds(iso8601 text: some StringProtocol) -> Int64? {
        let pattern =
            /([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?(Z|[+-][0-9]{2}:?[0-9]{2})/
        guard let match = String(text).wholeMatch(of: pattern),
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
