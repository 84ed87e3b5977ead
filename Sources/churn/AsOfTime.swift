import Foundation

/// Parses `--as-of` values into Unix milliseconds.
enum AsOfTime {
    static func parse(_ text: String) -> Int64? {
        if let milliseconds = Int64(text), text.count >= 10 { return milliseconds }
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        iso.formatOptions.insert(.withFractionalSeconds)
        if let date = iso.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if let date = day.date(from: text) {
            // A date means the end of that day (UTC): its notifications count.
            return Int64(date.timeIntervalSince1970 * 1000) + 86_400_000 - 1
        }
        return nil
    }
}
