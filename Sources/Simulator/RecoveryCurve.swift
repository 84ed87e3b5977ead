import Analysis
import Foundation

/// When, in an episode that ends in recovery, the payment goes through: the cumulative share of eventual
/// recoveries by day of billing retry, linear between the given points and starting at (day 0, share 0).
///
/// The default follows the shape of Apple's published figures: about 40 % of the recoveries by day 3, 75 % by
/// day 16, 90 % by day 28, all within the 60 days of billing retry.
///
/// ## File format
/// One point per line, `<day> <cumulative share>`, with days increasing from above 0 to at most 60 (decimals
/// allowed), shares from 0 to 1 never decreasing, and the last share exactly 1. `#` starts a comment; blank lines
/// and CRLF line ends are fine. The default curve as a file:
/// ```
/// # day  share of eventual recoveries
/// 3      0.40
/// 16     0.75
/// 28     0.90
/// 60     1.00
/// ```
package struct RecoveryCurve: Hashable, Sendable {
    /// One point of the cumulative curve.
    package struct Point: Hashable, Sendable {
        package var day: Double
        package var share: Double

        package init(day: Double, share: Double) {
            self.day = day
            self.share = share
        }
    }

    /// The last day on which a recovery can happen: the App Store retries billing for 60 days.
    package static let retryDays = 60.0

    package static let `default` = RecoveryCurve(
        validated: [
            Point(day: 3, share: 0.40), Point(day: 16, share: 0.75), Point(day: 28, share: 0.90),
            Point(day: 60, share: 1.00),
        ]
    )

    /// The points, in order of day.
    package let points: [Point]

    private init(validated points: [Point]) {
        self.points = points
    }

    /// Checks and keeps `points`.
    /// - Throws: ``SimulationError/invalidRecoveryCurve(line:reason:)`` naming what is wrong.
    package init(points: [Point]) throws {
        try self.init(points: points, lines: nil)
    }

    /// Reads the file format described on the type.
    /// - Throws: ``SimulationError/invalidRecoveryCurve(line:reason:)`` with the line number.
    package init(parsing text: String) throws {
        var points: [Point] = []
        var lines: [Int] = []
        // Split on Character newlines: "\r\n" is one Character, so CRLF files count their lines right.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            guard fields.count == 2, let day = Double(fields[0]), let share = Double(fields[1]) else {
                let found = content.trimmingCharacters(in: .whitespaces)
                throw SimulationError.invalidRecoveryCurve(
                    line: index + 1,
                    reason: "expected `<day> <cumulative share>`, found \"\(found)\""
                )
            }
            points.append(Point(day: day, share: share))
            lines.append(index + 1)
        }
        try self.init(points: points, lines: lines)
    }

    private init(points: [Point], lines: [Int]?) throws {
        guard !points.isEmpty else {
            throw SimulationError.invalidRecoveryCurve(line: nil, reason: "no points; give at least `60 1.0`")
        }
        var previous = Point(day: 0, share: 0)
        for (index, point) in points.enumerated() {
            let line = lines?[index]
            guard point.day.isFinite, point.day > previous.day, point.day <= Self.retryDays else {
                throw SimulationError.invalidRecoveryCurve(
                    line: line,
                    reason: "days must increase, from above 0 to at most 60 (day \(point.day) after \(previous.day))"
                )
            }
            guard point.share.isFinite, point.share >= previous.share, point.share <= 1 else {
                throw SimulationError.invalidRecoveryCurve(
                    line: line,
                    reason:
                        "shares must not decrease and stay within 0...1 (share \(point.share) after \(previous.share))"
                )
            }
            previous = point
        }
        guard previous.share == 1 else {
            throw SimulationError.invalidRecoveryCurve(
                line: lines?.last,
                reason: "the last share is \(previous.share); the curve must reach 1 (all eventual recoveries)"
            )
        }
        self.points = points
    }

    /// The time from the start of an episode to its recovery, for a uniform draw `unit` in 0..<1: the inverse of
    /// the curve, in milliseconds.
    package func delay(unit: Double) -> Int64 {
        var previous = Point(day: 0, share: 0)
        for point in points {
            if unit < point.share {
                let fraction = (unit - previous.share) / (point.share - previous.share)
                let day = previous.day + fraction * (point.day - previous.day)
                return Int64(day * Double(Milliseconds.day))
            }
            previous = point
        }
        return Int64(previous.day * Double(Milliseconds.day))
    }

    /// The curve in the file format, for `--help` and for writing a starting point.
    package var fileText: String {
        points.map { String(format: "%g %.4g", $0.day, $0.share) }.joined(separator: "\n") + "\n"
    }
}
