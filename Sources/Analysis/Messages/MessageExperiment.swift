/// The figures of `message_experiment.csv` (METRICS.md v2.2, "Billing messages the app showed", *Experiments*): when
/// the app's logged events carry an experiment arm, each arm's episodes (an episode's arm is the arm of its first
/// logged event; episodes without an event have none and are left out) against the reference arm, the first in name
/// order.
///
/// Per arm: the episodes, the mature ones and those recovered, the mature recovery rate with its Wilson interval, the
/// cumulative incidence of recovery on days 7, 30 and 60 (the Aalen–Johansen curve of the arm's episodes); against
/// the reference arm, the difference of mature recovery rates with its Newcombe interval, and the hazard ratio,
/// Mantel–Haenszel over retry days 1…60 (every day a stratum; each day's episodes at risk and recoveries counted as
/// the life table counts them, ``RetryDays``) with its Greenland–Robins interval. Only standard episodes count: their
/// retry window is the 60 days of the curve.
package enum MessageExperiment {
    /// The days of the curve the file reports.
    package static let curveDays = [7, 30, 60]

    /// One arm's row.
    package struct Row: Hashable, Sendable {
        package var arm: String
        package var episodes: Int
        package var matureEpisodes: Int
        package var matureRecovered: Int
        /// matureRecovered / matureEpisodes; nil without a mature episode.
        package var matureRecoveryRate: Double? {
            matureEpisodes == 0 ? nil : Double(matureRecovered) / Double(matureEpisodes)
        }
        package var matureRecoveryInterval: ConfidenceInterval? {
            ConfidenceInterval.wilson(successes: matureRecovered, trials: matureEpisodes)
        }
        /// The curve on ``MessageExperiment/curveDays``.
        package var cif: [Double]
        /// Against the reference arm; nil on the reference arm's own row, or where undefined.
        package var difference: Double?
        package var differenceInterval: ConfidenceInterval?
        package var hazardRatio: RateRatio?
    }

    /// The arms' counts, added up one episode at a time.
    package struct Tally: Sendable {
        private struct Arm: Sendable {
            var episodes = 0
            var mature = 0
            var matureRecovered = 0
            var curve: RecoveryCurve.Tally
            var days: RetryDays.Tally

            mutating func add(_ episode: Episode, asOf: Int64) {
                episodes += 1
                curve.add(episode)
                days.add(episode)
                guard episode.isMature(asOf: asOf) else { return }
                mature += 1
                if episode.outcome == .recovered { matureRecovered += 1 }
            }
        }

        let asOf: Int64
        private var arms: [String: Arm] = [:]

        /// - Parameter asOf: the as-of time (Unix ms), which decides which episodes are mature; open episodes are
        ///   censored there.
        package init(asOf: Int64) {
            self.asOf = asOf
        }

        /// Adds one standard episode of `arm` (the arm of its first logged event).
        package mutating func add(_ episode: Episode, arm: String) {
            guard episode.billingPlan == .standard else { return }
            let asOf = asOf
            arms[arm, default: Arm(curve: RecoveryCurve.Tally(asOf: asOf), days: RetryDays.Tally(asOf: asOf))]
                .add(episode, asOf: asOf)
        }

        /// Whether no episode had an arm: then there is no file.
        package var isEmpty: Bool { arms.isEmpty }

        /// One row per arm, in UTF-8 order of the names.
        package var rows: [Row] {
            let names = arms.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            guard let referenceName = names.first, let reference = arms[referenceName] else { return [] }
            let referenceDays = reference.days.lifeTable()
            return names.compactMap { name in
                guard let arm = arms[name] else { return nil }
                let points = arm.curve.points
                var row = Row(
                    arm: name, episodes: arm.episodes, matureEpisodes: arm.mature, matureRecovered: arm.matureRecovered,
                    cif: MessageExperiment.curveDays.map { day in points.first { $0.day == day }?.cifRecovery ?? 0 })
                guard name != referenceName else { return row }
                if let rate = row.matureRecoveryRate, reference.mature > 0 {
                    row.difference = rate - Double(reference.matureRecovered) / Double(reference.mature)
                    row.differenceInterval = ConfidenceInterval.newcombe(
                        successes: arm.matureRecovered, trials: arm.mature, successes: reference.matureRecovered,
                        trials: reference.mature)
                }
                let days = arm.days.lifeTable()
                row.hazardRatio = RateRatio(
                    mantelHaenszel: zip(days, referenceDays).map { ($0.counts, $1.counts) })
                return row
            }
        }
    }
}
