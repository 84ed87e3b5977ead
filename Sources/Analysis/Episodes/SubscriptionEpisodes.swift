/// What the episode builder makes of one subscription's notifications.
package struct SubscriptionEpisodes: Hashable, Sendable {
    /// The `originalTransactionId`; nil for the run of notifications that have none.
    package var subscription: String?
    /// In order of start; `sequence` counts from 1.
    package var episodes: [Episode]
    package var dataQuality: DataQualityCounts
    /// `DID_RENEW` notifications whose subtype is not `BILLING_RECOVERY`, by UTC month of `signedDate`
    /// (the denominator part of `billing_failure_rate`).
    package var renewals: PeriodCounts
    /// The keys that link the subscription to its customer, and its purchases that may be a return.
    package var customer = CustomerFacts()

    package init(
        subscription: String?,
        episodes: [Episode] = [],
        dataQuality: DataQualityCounts = DataQualityCounts(),
        renewals: PeriodCounts = PeriodCounts()
    ) {
        self.subscription = subscription
        self.episodes = episodes
        self.dataQuality = dataQuality
        self.renewals = renewals
    }
}
