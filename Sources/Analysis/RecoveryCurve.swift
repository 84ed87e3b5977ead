/// The figures of `recovery_curve.csv`: the cumulative incidence of recovery by day of the episode
/// (Aalen–Johansen), with `expired`, `cancelled` and `other` as competing events and `open` episodes censored at
/// their duration.
package enum RecoveryCurve {
    /// Days reported: 1…60.
    package static let days = 1...60

    /// One day of the curve.
    package struct Point: Hashable, Sendable {
        package var day: Int
        /// Episodes whose duration is ≥ (day − 1)·24 h.
        package var atRisk: Int
        /// Recovered episodes whose duration is ≤ day·24 h (the same cut as `cifRecovery`).
        package var recovered: Int
        /// CIF at the largest event duration ≤ day·24 h, 0 before the first.
        package var cifRecovery: Double

        package init(day: Int, atRisk: Int, recovered: Int, cifRecovery: Double) {
            self.day = day
            self.atRisk = atRisk
            self.recovered = recovered
            self.cifRecovery = cifRecovery
        }
    }

    package static func points(episodes: [Episode], asOf: Int64) -> [Point] {
        var tally = Tally(asOf: asOf)
        for episode in episodes { tally.add(episode) }
        return tally.points
    }

    /// What the curve needs of each episode, added one episode at a time: its duration and outcome (16 bytes),
    /// never the episode.
    package struct Tally: Sendable {
        let asOf: Int64
        private var durations: [(duration: Int64, outcome: Episode.Outcome)] = []

        /// - Parameter asOf: the as-of time (Unix ms); open episodes are censored there.
        package init(asOf: Int64) {
            self.asOf = asOf
        }

        package mutating func add(_ episode: Episode) {
            durations.append((episode.duration(asOf: asOf), episode.outcome))
        }

        /// The points of days 1…60.
        package var points: [Point] {
            RecoveryCurve.points(sorted: durations.sorted { $0.duration < $1.duration })
        }
    }

    /// The points of days 1…60 from every episode's duration and outcome, sorted by duration.
    private static func points(sorted: [(duration: Int64, outcome: Episode.Outcome)]) -> [Point] {
        // Aalen–Johansen steps at each distinct duration tᵢ that has an event (any outcome but open).
        var steps: [(time: Int64, cif: Double)] = []
        var survival = 1.0
        var cif = 0.0
        var index = sorted.startIndex
        while index < sorted.endIndex {
            let time = sorted[index].duration
            let atRisk = sorted.endIndex - index  // durations ≥ time, censored ones at time included
            var ended = 0
            var recovered = 0
            while index < sorted.endIndex, sorted[index].duration == time {
                switch sorted[index].outcome {
                case .open: break
                case .recovered:
                    ended += 1
                    recovered += 1
                default: ended += 1
                }
                index += 1
            }
            guard ended > 0 else { continue }
            cif += survival * Double(recovered) / Double(atRisk)
            survival *= 1 - Double(ended) / Double(atRisk)
            steps.append((time, cif))
        }

        let recoveryDurations = sorted.filter { $0.outcome == .recovered }.map(\.duration)
        var points: [Point] = []
        var stepIndex = 0
        var atRiskIndex = 0
        var recoveredCount = 0
        var latestCIF = 0.0
        for day in days {
            let dayEnd = Int64(day) * Milliseconds.day
            let dayStart = dayEnd - Milliseconds.day
            while atRiskIndex < sorted.endIndex, sorted[atRiskIndex].duration < dayStart { atRiskIndex += 1 }
            while recoveredCount < recoveryDurations.endIndex, recoveryDurations[recoveredCount] <= dayEnd {
                recoveredCount += 1
            }
            while stepIndex < steps.endIndex, steps[stepIndex].time <= dayEnd {
                latestCIF = steps[stepIndex].cif
                stepIndex += 1
            }
            points.append(
                Point(
                    day: day, atRisk: sorted.endIndex - atRiskIndex, recovered: recoveredCount, cifRecovery: latestCIF)
            )
        }
        return points
    }
}
