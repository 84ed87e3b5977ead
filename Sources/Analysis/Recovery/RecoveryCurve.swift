/// The figures of `recovery_curve.csv` and `recovery_curve_commitment.csv`: the cumulative incidence of recovery by
/// day of the episode (Aalen–Johansen), with `expired`, `cancelled` and `other` as competing events and `open`
/// episodes censored at their duration; one curve per billing plan, over days 1…W of that plan (METRICS.md v2.2,
/// "Commitment plans").
package enum RecoveryCurve {
    /// Days reported for a standard plan: 1…60.
    package static let days = days(of: .standard)

    /// Days reported for `plan`: 1…W.
    package static func days(of plan: Episode.BillingPlan) -> ClosedRange<Int> {
        1...plan.retryWindowDays
    }

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

    /// The curve of the episodes of `plan` among `episodes` (standard: `recovery_curve.csv`).
    package static func points(episodes: [Episode], asOf: Int64, plan: Episode.BillingPlan = .standard) -> [Point] {
        var tally = Tally(asOf: asOf, plan: plan)
        for episode in episodes where episode.billingPlan == plan { tally.add(episode) }
        return tally.points
    }

    /// What the curve needs of each episode, added one episode at a time: its duration and outcome (16 bytes),
    /// never the episode.
    package struct Tally: Sendable {
        let asOf: Int64
        /// The plan whose days the curve covers (1…W) and whose window is the horizon of a recovery chance.
        package let plan: Episode.BillingPlan
        /// Each episode's duration and outcome in one word (``Packed``): a large report adds hundreds of thousands.
        private var durations: [Int64] = []

        /// - Parameters:
        ///   - asOf: the as-of time (Unix ms); open episodes are censored there.
        ///   - plan: the billing plan of the episodes the caller adds.
        package init(asOf: Int64, plan: Episode.BillingPlan = .standard) {
            self.asOf = asOf
            self.plan = plan
        }

        /// Adds an episode; the caller adds only episodes of ``plan``.
        package mutating func add(_ episode: Episode) {
            durations.append(Packed.word(duration: episode.duration(asOf: asOf), outcome: episode.outcome))
        }

        /// Whether no episode was added.
        package var isEmpty: Bool { durations.isEmpty }

        /// The points of days 1…W.
        package var points: [Point] { curve.points }

        /// The Aalen–Johansen estimate itself, for the recovery chance of open episodes.
        package var estimate: Estimate { Estimate(sorted: sorted, horizon: plan.retryWindow) }

        /// The points and the estimate they come from, the durations sorted once.
        package var curve: (points: [Point], estimate: Estimate) {
            let sorted = self.sorted
            let estimate = Estimate(sorted: sorted, horizon: plan.retryWindow)
            return (
                RecoveryCurve.points(sorted: sorted, estimate: estimate, days: RecoveryCurve.days(of: plan)), estimate
            )
        }

        private var sorted: [Int64] { durations.sorted() }
    }

    /// An episode's duration and outcome in one `Int64`: duration × 8 + the outcome's place in
    /// `Episode.Outcome.allCases`. Words sort by duration; within one duration, by outcome, which neither the
    /// estimate nor the points depend on (both take the episodes of one duration together).
    enum Packed {
        private static let outcomes = Episode.Outcome.allCases

        static func word(duration: Int64, outcome: Episode.Outcome) -> Int64 {
            // A duration is at most years of milliseconds, far inside the 60 bits left.
            duration &* 8 &+ Int64(outcomes.firstIndex(of: outcome) ?? 0)
        }

        /// The duration: the arithmetic shift floors, so a negative duration comes back too.
        static func duration(_ word: Int64) -> Int64 { word >> 3 }

        static func outcome(_ word: Int64) -> Episode.Outcome { outcomes[Int(word & 7)] }
    }

    /// The Aalen–Johansen estimate as a step function: at each distinct event duration, the cumulative incidence of
    /// recovery (CIF) and the share still in retry (S) just after it.
    package struct Estimate: Hashable, Sendable {
        /// One step: the event duration, and CIF and S after it.
        package struct Step: Hashable, Sendable {
            package var time: Int64
            package var cif: Double
            package var survival: Double
        }

        package private(set) var steps: [Step] = []
        /// H: the retry window of the curve's plan, W × 24 h.
        package let horizon: Int64

        /// - Parameters:
        ///   - sorted: every episode's duration and outcome (``Packed``), sorted.
        ///   - horizon: H, the retry window of the episodes' plan.
        init(sorted: [Int64], horizon: Int64) {
            self.horizon = horizon
            var survival = 1.0
            var cif = 0.0
            var index = sorted.startIndex
            while index < sorted.endIndex {
                let time = Packed.duration(sorted[index])
                let atRisk = sorted.endIndex - index  // durations ≥ time, censored ones at time included
                var ended = 0
                var recovered = 0
                while index < sorted.endIndex, Packed.duration(sorted[index]) == time {
                    switch Packed.outcome(sorted[index]) {
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
                steps.append(Step(time: time, cif: cif, survival: survival))
            }
        }

        /// CIF and S at the largest event duration ≤ `time`: 0 and 1 before the first.
        package func value(at time: Int64) -> (cif: Double, survival: Double) {
            // The number of steps at or before `time`.
            var low = 0
            var high = steps.count
            while low < high {
                let middle = (low + high) / 2
                if steps[middle].time <= time { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return (0, 1) }
            return (steps[low - 1].cif, steps[low - 1].survival)
        }

        /// The recovery chance of an open episode `duration` into retry (METRICS.md v2.1, "What retry is still
        /// expected to bring back"; v2.2 per plan): (CIF(H) − CIF(u)) / S(u) with H = W days of the curve's plan and
        /// u the duration capped at H, the share of the episodes still in retry after u that the scope's history saw
        /// recover by day W; 0 when S(u) = 0.
        package func recoveryChance(duration: Int64) -> Double {
            let u = min(max(duration, 0), horizon)
            let atHorizon = value(at: horizon)
            let atU = value(at: u)
            guard atU.survival > 0 else { return 0 }
            return (atHorizon.cif - atU.cif) / atU.survival
        }
    }

    /// The points of `days` from every episode's duration and outcome, sorted by duration, and their estimate.
    private static func points(
        sorted: [Int64], estimate: Estimate, days: ClosedRange<Int>
    ) -> [Point] {
        let steps = estimate.steps
        let recoveryDurations = sorted.filter { Packed.outcome($0) == .recovered }.map(Packed.duration)
        var points: [Point] = []
        var stepIndex = 0
        var atRiskIndex = 0
        var recoveredCount = 0
        var latestCIF = 0.0
        for day in days {
            let dayEnd = Int64(day) * Milliseconds.day
            let dayStart = dayEnd - Milliseconds.day
            while atRiskIndex < sorted.endIndex, Packed.duration(sorted[atRiskIndex]) < dayStart { atRiskIndex += 1 }
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

extension RecoveryCurve {
    /// One curve per billing plan, each episode added to its own plan's.
    package struct ByPlan: Sendable {
        package private(set) var standard: Tally
        package private(set) var commitment: Tally

        /// - Parameter asOf: the as-of time (Unix ms); open episodes are censored there.
        package init(asOf: Int64) {
            standard = Tally(asOf: asOf, plan: .standard)
            commitment = Tally(asOf: asOf, plan: .commitment)
        }

        package mutating func add(_ episode: Episode) {
            switch episode.billingPlan {
            case .standard: standard.add(episode)
            case .commitment: commitment.add(episode)
            }
        }

        /// Both curves: the standard plan's always, the commitment plan's only when an episode of it was added.
        package var curves: (standard: [Point], commitment: [Point], estimates: Estimates) {
            let standardCurve = standard.curve
            let commitmentCurve = commitment.isEmpty ? nil : commitment.curve
            return (
                standardCurve.points, commitmentCurve?.points ?? [],
                Estimates(
                    standard: standardCurve.estimate,
                    commitment: commitmentCurve?.estimate ?? commitment.estimate)
            )
        }

        /// The estimates alone.
        package var estimates: Estimates {
            Estimates(standard: standard.estimate, commitment: commitment.estimate)
        }
    }

    /// The estimate of each billing plan, for the recovery chance of an open episode of either.
    package struct Estimates: Hashable, Sendable {
        package var standard: Estimate
        package var commitment: Estimate

        package init(standard: Estimate, commitment: Estimate) {
            self.standard = standard
            self.commitment = commitment
        }

        /// The chance of an open episode of `plan`, from its own plan's curve.
        package func recoveryChance(duration: Int64, plan: Episode.BillingPlan) -> Double {
            switch plan {
            case .standard: standard.recoveryChance(duration: duration)
            case .commitment: commitment.recoveryChance(duration: duration)
            }
        }
    }
}
