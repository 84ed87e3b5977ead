import Analysis
import PGClient
import Store

/// Encodes builder results as binary COPY rows for the episode tables (episodes, data quality, renewals, customer
/// links and purchases), each value at its column's declared type (``StoredTables``, ``PGRowEncoder``).
struct EpisodeRows {
    let environment: String
    private(set) var episodeCount = 0
    /// Episode and data-quality rows, held until the renewals' COPY is done.
    let episodes = CopySpool()
    let analysis = CopySpool()
    /// `subscription_links` and `subscription_purchases` rows.
    let links = CopySpool()
    let purchases = CopySpool()
    /// The renewals of the rows written, by month: what `renewal_months` gains.
    private(set) var renewalTotals = PeriodCounts()
    private var episodeRow = PGRowEncoder(StoredTables.billingEpisodes)
    private var analysisRow = PGRowEncoder(StoredTables.subscriptionAnalysis)
    private var linkRow = PGRowEncoder(StoredTables.subscriptionLinks)
    private var purchaseRow = PGRowEncoder(StoredTables.subscriptionPurchases)
    private var renewalRow = PGRowEncoder(StoredTables.subscriptionRenewals)

    init(environment: String) {
        self.environment = environment
    }

    /// Encodes one subscription's results: its renewal rows into `renewals`, the rest into the spools.
    mutating func add(_ result: SubscriptionEpisodes, renewalsTo renewals: inout PGCopyWriter) throws {
        let subscription = result.subscription ?? ""
        episodeRow.removeAll()
        for episode in result.episodes {
            try episodeRow.append(environment)
            try episodeRow.append(subscription)
            try episodeRow.append(episode.sequence)
            try episodeRow.append(episode.productId)
            try episodeRow.append(episode.storefront)
            try episodeRow.append(milliseconds: episode.start)
            try episodeRow.append(episode.hasGrace)
            try episodeRow.append(milliseconds: episode.graceEnd)
            try episodeRow.append(milliseconds: episode.end)
            try episodeRow.append(episode.outcome.rawValue)
            try episodeRow.append(
                intervalMilliseconds: episode.end.map { Milliseconds.elapsed(from: episode.start, to: $0) })
            try episodeRow.append(episode.isSavedInGrace)
            try episodeRow.append(episode.recoveryPrice)
            try episodeRow.append(episode.recoveryCurrency)
            try episodeRow.append(episode.cohortMonth)
            try episodeRow.append(episode.cohortWeek)
            try episodeRow.append(episode.offerType)
            try episodeRow.append(episode.offerDiscountType)
            try episodeRow.append(episode.isTrialConversion)
            try episodeRow.append(episode.openingNotificationUUID)
            try episodeRow.append(episode.closingNotificationUUID)
            try episodeRow.append(episode.recoveredBy?.rawValue)
            try episodeRow.append(episode.endInferred)
            try episodeRow.append(episode.graceEndInferred)
            try episodeRow.append(episode.stakePrice)
            try episodeRow.append(episode.stakeCurrency)
            try episodeRow.append(episode.bundleId)
            try episodeRow.append(episode.appAccountToken)
            try episodeRow.append(episode.graceDays)
            // A time past the years 1–9999 is NULL: the retry window of an episode that starts in the last days of
            // 9999 ends where no timestamp reaches, and such an episode never matures (``Episode/isMature(asOf:)``).
            try episodeRow.append(millisecondsOrNull: episode.retryWindowEnd)
            try episodeRow.append(millisecondsOrNull: episode.maturesAt)
            try episodeRow.append(episode.revocationType)
            try episodeRow.append(episode.revocationPercentage)
            try episodeRow.append(episode.billingPlan.rawValue)
            try episodeRow.append(episode.installmentsAtRisk)
            try episodeRow.append(episode.openingPrice)
            try episodeRow.append(episode.periodDays)
            try episodeRow.append(episode.provenRecoveryTransactionId)
            try episodeRow.endRow()
            episodeCount += 1
        }
        try episodes.append(episodeRow.bytes)

        let quality = result.dataQuality
        if quality.outsideEnvironment + quality.familySharedSkipped + quality.orphanDidRenewBillingRecovery
            + quality.orphanExpiredBillingRetry + quality.orphanGracePeriodExpired + quality.staleFailureNotice
            + quality.lateFailureNotice > 0
        {
            analysisRow.removeAll()
            try analysisRow.append(environment)
            try analysisRow.append(subscription)
            try analysisRow.append(quality.outsideEnvironment)
            try analysisRow.append(quality.familySharedSkipped)
            try analysisRow.append(quality.orphanDidRenewBillingRecovery)
            try analysisRow.append(quality.orphanExpiredBillingRetry)
            try analysisRow.append(quality.orphanGracePeriodExpired)
            try analysisRow.append(quality.staleFailureNotice)
            try analysisRow.append(quality.lateFailureNotice)
            try analysisRow.endRow()
            try analysis.append(analysisRow.bytes)
        }
        linkRow.removeAll()
        for entry in result.customer.links {
            try linkRow.append(environment)
            try linkRow.append(subscription)
            try linkRow.append(entry.link.key)
            try linkRow.append(milliseconds: entry.firstSigned)
            try linkRow.endRow()
        }
        try links.append(linkRow.bytes)
        purchaseRow.removeAll()
        for purchase in result.customer.purchases {
            try purchaseRow.append(environment)
            try purchaseRow.append(subscription)
            try purchaseRow.append(milliseconds: purchase.purchaseDate)
            try purchaseRow.append(milliseconds: purchase.signedDate)
            try purchaseRow.append(purchase.notificationUUID)
            try purchaseRow.append(purchase.notificationType)
            try purchaseRow.append(purchase.subtype)
            try purchaseRow.append(purchase.bundleId)
            try purchaseRow.append(purchase.productId)
            try purchaseRow.endRow()
        }
        try purchases.append(purchaseRow.bytes)
        renewalRow.removeAll()
        for entry in result.renewals.entries where entry.count > 0 {
            try renewalRow.append(environment)
            try renewalRow.append(subscription)
            try renewalRow.append(entry.period.description)
            try renewalRow.append(entry.count)
            try renewalRow.endRow()
            renewalTotals.add(entry.period, count: entry.count)
        }
        try renewals.write(renewalRow.bytes)
    }
}
