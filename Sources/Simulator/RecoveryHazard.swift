import Analysis
import Foundation

/// The shape of the daily recovery hazard over the 60 days of billing retry: a relative weight for each day.
///
/// Each day an episode is still in retry, it recovers with a probability proportional to the day's weight; the
/// level comes from ``SimulationOptions/recoveryRate`` (see ``RetryModel``), so only the shape matters here.
///
/// The default is the simulator's own assumption, not a measured pace: w(d) = 0.1 + 0.9 · e^(−(d−1)/6), a
/// smooth decline from 1 on day 1 to a floor of 0.1 (day 7: 0.43, day 14: 0.20, day 30: 0.11). Early retries
/// collect most of what retry will collect; a small chance of recovery remains to the end.
///
/// ## File format
/// One point per line, `<day> <weight>`: whole days increasing from 1 to at most 60, weights at least 0 and at
/// least one above 0. Days between two points get the weight on the straight line between them; days before the
/// first point the first weight, days after the last point the last weight. `#` starts a comment; blank lines and
/// CRLF line ends are fine. A hazard that halves after two weeks:
/// ```
/// # day  relative hazard
/// 1      1.0
/// 14     1.0
/// 15     0.5
/// ```
package struct RecoveryHazard: Hashable, Sendable {
    /// One given point of the shape.
    package struct Point: Hashable, Sendable {
        package var day: Int
        package var weight: Double

        package init(day: Int, weight: Double) {
            self.day = day
            self.weight = weight
        }
    }

    /// The days of billing retry: the App Store retries for 60 days.
    package static let retryDays = 60

    package static let `default` = RecoveryHazard(
        weights: (1...retryDays).map { day in 0.1 + 0.9 * exp(-Double(day - 1) / 6) }
    )

    /// The weight of day d at index d − 1, for days 1…60.
    package let weights: [Double]

    private init(weights: [Double]) {
        self.weights = weights
    }

    /// The shape through `points`.
    /// - Throws: ``SimulationError/invalidRecoveryHazard(line:reason:)`` naming what is wrong.
    package init(points: [Point]) throws {
        try self.init(points: points, lines: nil)
    }

    /// Reads the file format described on the type.
    /// - Throws: ``SimulationError/invalidRecoveryHazard(line:reason:)`` with the line number.
    package init(parsing text: String) throws {
        var points: [Point] = []
        var lines: [Int] = []
        // Split on Character newlines: "\r\n" is one Character, so CRLF files count their lines right.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            guard fields.count == 2, let day = Int(fields[0]), let weight = Double(fields[1]) else {
                let found = content.trimmingCharacters(in: .whitespaces)
                throw SimulationError.invalidRecoveryHazard(
                    line: index + 1,
                    reason: "expected `<day> <weight>` with a whole day, found \"\(found)\""
                )
            }
            points.append(Point(day: day, weight: weight))
            lines.append(index + 1)
        }
        try self.init(points: points, lines: lines)
    }

    private init(points: [Point], lines: [Int]?) throws {
        guard let first = points.first, let last = points.last else {
            throw SimulationError.invalidRecoveryHazard(line: nil, reason: "no points; give at least `1 1.0`")
        }
        var previousDay = 0
        for (index, point) in points.enumerated() {
            let line = lines?[index]
            guard point.day > previousDay, point.day <= Self.retryDays else {
                throw SimulationError.invalidRecoveryHazard(
                    line: line,
                    reason: "days must increase, from 1 to at most 60 (day \(point.day) after \(previousDay))"
                )
            }
            guard point.weight.isFinite, point.weight >= 0 else {
                throw SimulationError.invalidRecoveryHazard(
                    line: line,
                    reason: "a weight must be a number of at least 0, not \(point.weight)"
                )
            }
            previousDay = point.day
        }
        guard points.contains(where: { $0.weight > 0 }) else {
            throw SimulationError.invalidRecoveryHazard(
                line: lines?.last,
                reason: "every weight is 0; at least one day needs a chance of recovery"
            )
        }
        var weights: [Double] = []
        weights.reserveCapacity(Self.retryDays)
        var next = 0
        for day in 1...Self.retryDays {
            while next < points.count, points[next].day < day { next += 1 }
            if day <= first.day {
                weights.append(first.weight)
            } else if next == points.count {
                weights.append(last.weight)
            } else {
                let upper = points[next]
                let lower = points[next - 1]
                let fraction = Double(day - lower.day) / Double(upper.day - lower.day)
                weights.append(lower.weight + fraction * (upper.weight - lower.weight))
            }
        }
        self.weights = weights
    }

    /// The weight of `day` (1…60); 0 outside.
    package func weight(day: Int) -> Double {
        (1...Self.retryDays).contains(day) ? weights[day - 1] : 0
    }

    /// The shape in the file format, one line per day, for writing a starting point.
    package var fileText: String {
        "# day  relative hazard\n"
            + weights.enumerated().map { String(format: "%d %.6g", $0.offset + 1, $0.element) }.joined(separator: "\n")
            + "\n"
    }
}
