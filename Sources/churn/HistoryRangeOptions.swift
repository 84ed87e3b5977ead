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
        _ = try start
        _ = try end
    }

    /// `--from`: where the range starts (a day's first instant).
    private var start: Int64? {
        get throws(ValidationError) {
            guard let from else { return nil }
            return try DateArgument.parse(from, option: "--from", forms: .time, day: .start).start
        }
    }

    /// `--to`: where the range ends, excluded (a day's end: the day is included).
    private var end: Int64? {
        get throws(ValidationError) {
            guard let to else { return nil }
            return try DateArgument.parse(to, option: "--to", forms: .time, day: .end).end
        }
    }

    /// The range in Unix milliseconds, `[start, end)`, checked against the history Apple keeps at `now`; nil when
    /// neither bound is given. Without `--from` it starts at the oldest history Apple keeps; `--to` is at most `now`.
    /// - Throws: `ValidationError` for an empty range or a start older than Apple keeps.
    func range(now: Int64, retention: Int64, environment: String) throws -> (start: Int64, end: Int64)? {
        guard from != nil || to != nil else { return nil }
        let earliest = now - retention
        let start = try self.start ?? earliest + 600_000
        let end = min(try self.end ?? now, now)
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

    /// An instant as `2026-05-03T12:00:00Z`.
    static func text(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
