/// When the App Store sends the billing-issue message during retry, as bands of days with a message interval.
///
/// Each band's messages are at its start and then every `intervalHours` while inside the band. A message at
/// offset m counts as sent for an episode whose duration is > m (METRICS.md, "Message-interval effectiveness").
package struct MessageSchedule: Hashable, Sendable, CustomStringConvertible {
    /// Days `firstDay…lastDay` of an episode (day 1 is the first 24 h).
    package struct Band: Hashable, Sendable {
        /// 1-based position in the schedule.
        package var number: Int
        package var firstDay: Int
        package var lastDay: Int
        package var intervalHours: Int

        /// Offset of the band's start from t0 (ms).
        package var start: Int64 { Int64(firstDay - 1) * Milliseconds.day }
        /// Offset of the band's end from t0 (ms), exclusive.
        package var end: Int64 { Int64(lastDay) * Milliseconds.day }
        package var interval: Int64 { Int64(intervalHours) * Milliseconds.hour }

        /// The band's message offsets from t0 (ms): start, start + interval, … < end.
        package var messageOffsets: [Int64] {
            Array(stride(from: start, to: end, by: Int(interval)))
        }
    }

    /// One band as given: `(firstDay, lastDay, intervalHours)`.
    package typealias BandSpec = (firstDay: Int, lastDay: Int, intervalHours: Int)

    /// The longest schedule accepted, in days.
    package static let maximumDays = 366

    package let bands: [Band]

    /// The App Store's schedule: days 1–3 every 24 h, 4–16 every 72 h, 17–30 every 96 h, 31–60 every 120 h.
    package static let standard = MessageSchedule(
        validated: [(1, 3, 24), (4, 16, 72), (17, 30, 96), (31, 60, 120)]
    )

    /// A schedule from its bands, in order.
    ///
    /// - Throws: `AnalysisError` unless the bands start at day 1, follow each other without gaps or overlaps,
    ///   end by day `maximumDays`, and have an interval of at least 1 hour.
    package init(bands: [BandSpec]) throws {
        try Self.validate(bands)
        self.init(validated: bands)
    }

    /// Bands already checked by `validate(_:lines:)`.
    init(validated bands: [BandSpec]) {
        self.bands = bands.enumerated().map { index, band in
            Band(number: index + 1, firstDay: band.firstDay, lastDay: band.lastDay, intervalHours: band.intervalHours)
        }
    }

    /// The schedule in the text form `parse(_:)` reads.
    package var description: String {
        bands.map { "\($0.firstDay)-\($0.lastDay) \($0.intervalHours)h\n" }.joined()
    }

    /// Checks the rules of `init(bands:)`.
    ///
    /// - Parameters:
    ///   - bands: the bands in order.
    ///   - lines: the text line of each band, when read from text; errors then name the line, else the band.
    /// - Throws: `AnalysisError` for the first band that breaks a rule.
    static func validate(_ bands: [BandSpec], lines: [Int]? = nil) throws {
        let subject = "message schedule"
        guard !bands.isEmpty else { throw AnalysisError(subject: subject, reason: "no bands given") }
        var expectedFirstDay = 1
        for (index, band) in bands.enumerated() {
            let line = lines?[index]
            let name = line == nil ? "band \(index + 1)" : "the band"
            guard band.firstDay == expectedFirstDay else {
                let follows =
                    expectedFirstDay == 1 ? "the first band must start at day 1" : "the day after the previous band"
                throw AnalysisError(
                    subject: subject, line: line,
                    reason: "\(name) starts at day \(band.firstDay), expected day \(expectedFirstDay) (\(follows))"
                )
            }
            guard band.lastDay >= band.firstDay else {
                throw AnalysisError(
                    subject: subject, line: line,
                    reason: "\(name) ends at day \(band.lastDay), before its first day \(band.firstDay)"
                )
            }
            guard band.lastDay <= maximumDays else {
                throw AnalysisError(
                    subject: subject, line: line,
                    reason: "\(name) ends at day \(band.lastDay); a schedule covers at most \(maximumDays) days"
                )
            }
            guard band.intervalHours >= 1 else {
                throw AnalysisError(
                    subject: subject, line: line,
                    reason: "\(name) has interval \(band.intervalHours)h; the interval must be at least 1h"
                )
            }
            expectedFirstDay = band.lastDay + 1
        }
    }
}
