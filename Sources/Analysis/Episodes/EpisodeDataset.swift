/// Everything the metrics need: all episodes in scope, the builder's counts, and the as-of time.
///
/// Build it by adding each subscription's results, then call ``finish()`` once: it applies what depends on the
/// as-of time and on all episodes together (the retry window at the as-of time, grace ends inferred from the
/// usual grace length). The metrics read finished datasets.
package struct EpisodeDataset: Hashable, Sendable {
    /// The report's as-of time (ms); open episodes are censored here.
    package var asOf: Int64
    package var episodes: [Episode]
    package var dataQuality: DataQualityCounts
    /// `DID_RENEW` notifications that are not `BILLING_RECOVERY`, per month.
    package var renewals: PeriodCounts

    package init(
        asOf: Int64,
        episodes: [Episode] = [],
        dataQuality: DataQualityCounts = DataQualityCounts(),
        renewals: PeriodCounts = PeriodCounts()
    ) {
        self.asOf = asOf
        self.episodes = episodes
        self.dataQuality = dataQuality
        self.renewals = renewals
    }

    package mutating func add(_ subscription: SubscriptionEpisodes) {
        episodes.append(contentsOf: subscription.episodes)
        dataQuality.add(subscription.dataQuality)
        renewals.add(subscription.renewals)
    }

    /// Brings the episodes to the as-of time; idempotent.
    ///
    /// - An episode still open whose `t0` + 61 days ≤ as-of ends `expired` at `t0` + 60 days, by inference.
    /// - A grace period without a date gets `t0` plus its product's usual grace length (``GraceLengths``), or
    ///   stays unknown.
    /// - `inferred_expiry`, `grace_end_inferred` and `grace_end_unknown` are counted over the episodes.
    package mutating func finish() {
        let graceLengths = GraceLengths(observedIn: episodes)
        dataQuality.inferredExpiry = 0
        dataQuality.graceEndInferred = 0
        dataQuality.graceEndUnknown = 0
        dataQuality.commitmentGrace = 0
        for index in episodes.indices {
            Self.finish(&episodes[index], asOf: asOf, graceLengths: graceLengths)
            dataQuality.countInferences(of: episodes[index])
        }
    }

    /// Brings one episode to the as-of time, as ``finish()`` does each of a dataset's episodes, for episodes that
    /// stream through instead of being held.
    ///
    /// - Parameters:
    ///   - episode: an episode of the dataset's scope.
    ///   - asOf: the as-of time (Unix ms).
    ///   - graceLengths: the usual grace lengths of every episode of the scope (not only of those seen so far).
    package static func finish(_ episode: inout Episode, asOf: Int64, graceLengths: GraceLengths) {
        episode.closeRetryWindow(asOf: asOf)
        graceLengths.inferGraceEnd(of: &episode)
    }
}
