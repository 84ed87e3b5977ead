import Analysis
import ArgumentParser
import CivilTime

/// The one reader of the times users give on the command line: `--as-of` of `report` and `query`, `--from` and
/// `--to` of `fetch`, `gaps` and `query`, and `simulate --start`. Each option takes some of the forms: a UTC day, a
/// month or an ISO week (each a span of time), an ISO 8601 instant with its zone, or Unix milliseconds in a plausible
/// range. A value that is none of its option's forms is refused with what is wrong and an example of each form.
package enum DateArgument {
    /// The forms an option takes.
    package struct Forms: OptionSet, Sendable {
        package let rawValue: Int

        package init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `2026-11-20`, a UTC day.
        package static let day = Forms(rawValue: 1 << 0)
        /// `2026-11`, a UTC month.
        package static let month = Forms(rawValue: 1 << 1)
        /// `2026-W47`, an ISO 8601 week (UTC).
        package static let week = Forms(rawValue: 1 << 2)
        /// `2026-11-20T12:00:00Z`, `2026-11-20T14:00+02:00`: an ISO 8601 instant with its zone.
        package static let instant = Forms(rawValue: 1 << 3)
        /// `1763640000000`: Unix milliseconds from 2008 to 2100.
        package static let milliseconds = Forms(rawValue: 1 << 4)

        /// A point in time: a day, an instant or Unix milliseconds.
        package static let time: Forms = [.day, .instant, .milliseconds]
        /// A calendar span: a day, a month or an ISO week.
        package static let period: Forms = [.day, .month, .week]
    }

    /// What a day stands for where an option takes a point in time, for the message that lists the forms.
    package enum DayMeaning: Sendable {
        /// The day's first instant (`--from`).
        case start
        /// The day's last instant (`--as-of`, `--to`: the day is included).
        case end
    }

    /// What a value names: an instant, or a span of UTC time `[start, end)` (a day, a month, a week).
    package enum Value: Equatable, Sendable {
        case instant(Int64)
        case span(Range<Int64>)

        /// Where it starts: the instant, or the span's first millisecond.
        package var start: Int64 {
            switch self {
            case .instant(let milliseconds): return milliseconds
            case .span(let span): return span.lowerBound
            }
        }

        /// Where it ends, excluded: the instant, or the millisecond after the span.
        package var end: Int64 {
            switch self {
            case .instant(let milliseconds): return milliseconds
            case .span(let span): return span.upperBound
            }
        }

        /// Its last instant, included: the instant, or the span's last millisecond.
        package var last: Int64 {
            switch self {
            case .instant(let milliseconds): return milliseconds
            case .span(let span): return span.upperBound - 1
            }
        }
    }

    /// The time `text` names, read as `option` takes it.
    /// - Parameters:
    ///   - option: the option's name, for the message (`--as-of`).
    ///   - forms: the forms the option takes.
    ///   - day: what a day stands for, where the option takes instants too.
    /// - Throws: `ValidationError` (bad usage, 64) saying what is wrong and what the option takes.
    package static func parse(
        _ text: String, option: String, forms: Forms, day: DayMeaning = .end
    ) throws(ValidationError) -> Value {
        func refuse(_ why: String) -> ValidationError {
            ValidationError("\(option) \(text): \(why); expected \(describe(forms, day: day)).")
        }
        if forms.contains(.milliseconds), InstantText.isDigits(text) {
            switch InstantText.milliseconds(digits: text) {
            case .instant(let milliseconds): return .instant(milliseconds)
            case .seconds: throw refuse("this looks like Unix seconds; give milliseconds (\(text)000)")
            case .outOfRange:
                guard Int64(text) != nil else { throw refuse("too large a number") }
                throw refuse("Unix milliseconds out of the range 2008–2100")
            }
        }
        if forms.contains(.day), let date = CivilDate(parsing: text) {
            return .span(date.unixMilliseconds..<(date.unixMilliseconds + CivilDate.millisecondsPerDay))
        }
        if !forms.isDisjoint(with: [.month, .week]), let period = CalendarPeriod(parsing: text),
            forms.contains(period.granularity == .month ? .month : .week)
        {
            return .span(period.start..<period.end)
        }
        if forms.contains(.instant), text.utf8.contains(UInt8(ascii: "T")) {
            guard let instant = InstantText.milliseconds(iso8601: text) else {
                throw refuse("not a valid ISO 8601 instant with a zone")
            }
            return .instant(instant)
        }
        throw refuse(forms.isSuperset(of: [.month, .week]) ? "not a valid day, month or ISO week" : "not a valid day")
    }

    /// `--as-of` of `report` and `query`: the instant named, a day's last.
    package static func asOf(_ text: String) throws(ValidationError) -> Int64 {
        try parse(text, option: "--as-of", forms: .time).last
    }

    /// The forms, for messages: an example of each.
    package static func describe(_ forms: Forms, day: DayMeaning) -> String {
        var parts: [String] = []
        if forms.contains(.day) {
            if forms.contains(.instant) {
                parts.append("a day (2026-11-20: the \(day == .start ? "start" : "end") of that day, UTC)")
            } else {
                parts.append("a day (2026-03-05)")
            }
        }
        if forms.contains(.month) { parts.append("a month (2026-03)") }
        if forms.contains(.week) { parts.append("an ISO week (2026-W10)") }
        if forms.contains(.instant) {
            parts.append("an ISO 8601 instant with its zone (2026-11-20T12:00:00Z, 2026-11-20T14:00+02:00)")
        }
        if forms.contains(.milliseconds) { parts.append("Unix milliseconds (1763640000000)") }
        guard let final = parts.popLast() else { return "" }
        return parts.isEmpty ? final : parts.joined(separator: ", ") + " or " + final
    }
}
