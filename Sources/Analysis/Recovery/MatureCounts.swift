/// Mature episodes (t0 + 61 × 24 h ≤ as-of, so their outcome can no longer change) and how they ended, for the
/// rates that young episodes would bias (METRICS.md, "Mature" and "Headline figures").
package struct MatureCounts: Hashable, Sendable {
    package var episodes = 0
    package var recovered = 0
    package var expired = 0

    package init() {}

    /// Counts `episode` when it is mature at `asOf`.
    package mutating func add(_ episode: Episode, asOf: Int64) {
        guard episode.isMature(asOf: asOf) else { return }
        episodes += 1
        switch episode.outcome {
        case .recovered: recovered += 1
        case .expired: expired += 1
        case .cancelled, .other, .open: break
        }
    }

    /// mature_recovered / mature_episodes; nil when none is mature.
    package var recoveryRate: Double? {
        episodes == 0 ? nil : Double(recovered) / Double(episodes)
    }

    /// The Wilson interval of `recoveryRate`.
    package var recoveryRateInterval: ConfidenceInterval? {
        ConfidenceInterval.wilson(successes: recovered, trials: episodes)
    }

    /// mature expired / mature_episodes: involuntary churn; nil when none is mature.
    package var expiredRate: Double? {
        episodes == 0 ? nil : Double(expired) / Double(episodes)
    }

    /// The Wilson interval of `expiredRate`.
    package var expiredRateInterval: ConfidenceInterval? {
        ConfidenceInterval.wilson(successes: expired, trials: episodes)
    }
}
