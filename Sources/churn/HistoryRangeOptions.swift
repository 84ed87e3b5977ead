import ArgumentParser
import Foundation

/// `--from` and `--to` of `fetch` and `gaps`: a range of the notification history, in UTC.
struct HistoryRangeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Start of the range: a day (its start, UTC), an ISO 8601 date-time, or Unix milliseconds.",
            valueName: "when"
        )
    )
    var from: String?

    @Option(
        help: ArgumentHelp(
            "End of the range: a day (its end: the day is included), a date-time, or Unix milliseconds (default: now).",
            valueName: "when"
        )
    )
    var to: String?

    func validate() throws {
        if let from, Self.parse(from, endOfDay: false) == nil {
            throw ValidationError("--from \(from): expected YYYY-MM-DD, an ISO 8601 date-time, or Unix milliseconds.")
        }
        if let to, Self.parse(to, endOfDay: true) == nil {
            throw ValidationError("--to \(to): expected YYYY-MM-DD, an ISO 8601 date-time, or Unix milliseconds.")
        }
    }

    /// The range in Unix milliseconds, `[start, end)`, checked against the history Apple keeps at `now`; nil when
    /// neither bound is given. Without `--from` it starts at the oldest history Apple keeps; `--to` is at most `now`.
    /// - Throws: `ValidationError` for an empty range or a start older than Apple keeps.
    func range(now: Int64, retention: Int64, environment: String) throws -> (start: Int64, end: Int64)? {
        guard from != nil || to != nil else { return nil }
        let earliest = now - retention
        let start = from.flatMap { Self.parse($0, endOfDay: false) } ?? earliest + 600_000
        let end = min(to.flatMap { Self.parse($0, endOfDay: true) } ?? now, now)
        if start < earliest {
            throw ValidationError(
                "--from \(from ?? ""): Apple keeps \(retention / 86_400_000) days of \(environment) history; start at "
                    + "\(Self.text(earliest + 600_000)) or later."
            )
        }
        guard start < end else {
            throw ValidationError("the range is empty: --from must be before --to, and before now.")
        }
        return (start, end)
    }

    /// `YYYY-MM-DD` (its start, or with `endOfDay` the start of the next day), an ISO 8601 date-time, or Unix
    /// milliseconds.
    static func parse(_ text: String, endOfDay: Bool) -> Int64? {
        if let milliseconds = Int64(text), text.count >= 10 { return milliseconds }
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        iso.formatOptions.insert(.withFractionalSeconds)
        if let date = iso.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if let date = day.date(from: text) {
            return Int64(date.timeIntervalSince1970 * 1000) + (endOfDay ? 86_400_000 : 0)
        }
        return nil
    }

    /// An instant as `2026-05-03T12:00:00Z`.
    static func text(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
