import Analysis

/// The figures of one group of episodes (a cohort, a product, with or without a grace period) for the summary:
/// all of them by outcome, the mature ones, and when the whole group will be mature.
///
/// An episode is mature when t0 + 61 days ≤ as-of: billing retry lasts at most 60 days, so its outcome can no
/// longer change. A group is mature when all its episodes are (METRICS.md, "Open, duration, maturity"); until
/// then its mature rates cover only part of it and its other rates can still move.
package struct EpisodeGroup: Hashable, Sendable {
    package var outcomes = OutcomeCounts()
    package var mature = MatureCounts()
    /// The latest t0 + 61 days of the group: the first as-of time at which all its episodes are mature; nil for
    /// an empty group (or one whose time does not fit).
    package var matureFrom: Int64?

    package init() {}

    /// The figures of `episodes` as of `asOf`.
    package init(_ episodes: some Sequence<Episode>, asOf: Int64) {
        for episode in episodes { add(episode, asOf: asOf) }
    }

    package mutating func add(_ episode: Episode, asOf: Int64) {
        outcomes.add(episode)
        mature.add(episode, asOf: asOf)
        if let from = episode.maturesAt { matureFrom = max(matureFrom ?? from, from) }
    }

    /// Every episode of the group is mature (an empty group is not).
    package var isMature: Bool {
        outcomes.episodes > 0 && mature.episodes == outcomes.episodes
    }
}
