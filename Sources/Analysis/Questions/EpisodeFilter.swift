/// Which episodes an ad-hoc question is about: the filters of `churn query`.
///
/// Every condition must hold; an empty list or a nil condition lets every episode through. The same conditions
/// are applied in SQL to the stored episodes (`EpisodeQuery` in AnalysisStore) and here to episodes built in
/// memory; both must select the same episodes.
package struct EpisodeFilter: Hashable, Sendable {
    /// Episodes of any of these apps (bundle ids); `""` selects episodes without one.
    package var bundleIds: [String]
    /// Episodes of any of these products; `""` selects episodes without a product.
    package var productIds: [String]
    /// Episodes of any of these storefronts; `""` selects episodes without a storefront.
    package var storefronts: [String]
    /// Episodes whose start (t0) is at or after this time (Unix ms).
    package var startFrom: Int64?
    /// Episodes whose start (t0) is before this time (Unix ms, exclusive).
    package var startBefore: Int64?
    /// `true`: trial conversions only (the failed charge was the first after a free trial); `false`: paid
    /// renewals only.
    package var isTrialConversion: Bool?
    /// `true`: a subscription's first episode only (`sequence` 1); `false`: repeat episodes only.
    package var isFirstEpisode: Bool?

    package init(
        bundleIds: [String] = [],
        productIds: [String] = [],
        storefronts: [String] = [],
        startFrom: Int64? = nil,
        startBefore: Int64? = nil,
        isTrialConversion: Bool? = nil,
        isFirstEpisode: Bool? = nil
    ) {
        self.bundleIds = bundleIds
        self.productIds = productIds
        self.storefronts = storefronts
        self.startFrom = startFrom
        self.startBefore = startBefore
        self.isTrialConversion = isTrialConversion
        self.isFirstEpisode = isFirstEpisode
    }

    /// Whether `episode` is in scope.
    package func matches(_ episode: Episode) -> Bool {
        if !bundleIds.isEmpty, !bundleIds.contains(episode.bundleId ?? "") { return false }
        if !productIds.isEmpty, !productIds.contains(episode.productId ?? "") { return false }
        if !storefronts.isEmpty, !storefronts.contains(episode.storefront ?? "") { return false }
        if let startFrom, episode.start < startFrom { return false }
        if let startBefore, episode.start >= startBefore { return false }
        if let isTrialConversion, episode.isTrialConversion != isTrialConversion { return false }
        if let isFirstEpisode, (episode.sequence == 1) != isFirstEpisode { return false }
        return true
    }
}
