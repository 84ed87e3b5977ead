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
        for index in episodes.indices {
            episodes[index].closeRetryWindow(asOf: asOf)
        }
        GraceLengths(observedIn: episodes).inferGraceEnds(of: &episodes)
        dataQuality.inferredExpiry = 0
        dataQuality.graceEndInferred = 0
        dataQuality.graceEndUnknown = 0
        for episode in episodes {
            if episode.endInferred { dataQuality.inferredExpiry += 1 }
            if episode.graceEndInferred { dataQuality.graceEndInferred += 1 }
            if episode.isGraceEndUnknown { dataQuality.graceEndUnknown += 1 }
        }
    }
}
