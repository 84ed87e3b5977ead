/// Everything the metrics need: all episodes in scope, the builder's counts, and the as-of time.
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
}
