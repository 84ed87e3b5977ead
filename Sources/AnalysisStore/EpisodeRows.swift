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
            try episodeRow.append(environment, column: "environment")
            try episodeRow.append(subscription, column: "original_transaction_id")
            try episodeRow.append(episode.sequence, column: "sequence")
            try episodeRow.append(episode.productId, column: "product_id")
            try episodeRow.append(episode.storefront, column: "storefront")
            try episodeRow.append(milliseconds: episode.start, column: "start_at")
            try episodeRow.append(episode.hasGrace, column: "has_grace")
            try episodeRow.append(milliseconds: episode.graceEnd, column: "grace_end")
            try episodeRow.append(milliseconds: episode.end, column: "end_at")
            try episodeRow.append(episode.outcome.rawValue, column: "outcome")
            try episodeRow.append(
                intervalMilliseconds: episode.end.map { Milliseconds.elapsed(from: episode.start, to: $0) },
                column: "duration")
            try episodeRow.append(episode.isSavedInGrace, column: "saved_in_grace")
            try episodeRow.append(episode.recoveryPrice, column: "recovery_price")
            try episodeRow.append(episode.recoveryCurrency, column: "recovery_currency")
            try episodeRow.append(episode.cohortMonth, column: "cohort_month")
            try episodeRow.append(episode.cohortWeek, column: "cohort_week")
            try episodeRow.append(episode.offerType, column: "offer_type")
            try episodeRow.append(episode.offerDiscountType, column: "offer_discount_type")
            try episodeRow.append(episode.isTrialConversion, column: "trial_conversion")
            try episodeRow.append(episode.openingNotificationUUID, column: "opening_notification_uuid")
            try episodeRow.append(episode.closingNotificationUUID, column: "closing_notification_uuid")
            try episodeRow.append(episode.recoveredBy?.rawValue, column: "recovered_by")
            try episodeRow.append(episode.endInferred, column: "end_inferred")
            try episodeRow.append(episode.graceEndInferred, column: "grace_end_inferred")
            try episodeRow.append(episode.stakePrice, column: "stake_price")
            try episodeRow.append(episode.stakeCurrency, column: "stake_currency")
            try episodeRow.append(episode.bundleId, column: "bundle_id")
            try episodeRow.append(episode.appAccountToken, column: "app_account_token")
            try episodeRow.append(episode.graceDays, column: "grace_days")
            // A time past the years 1–9999 is NULL: the retry window of an episode that starts in the last days of
            // 9999 ends where no timestamp reaches, and such an episode never matures (``Episode/isMature(asOf:)``).
            try episodeRow.append(millisecondsOrNull: episode.retryWindowEnd, column: "window_end")
            try episodeRow.append(millisecondsOrNull: episode.maturesAt, column: "matures_at")
            try episodeRow.append(episode.revocationType, column: "revocation_type")
            try episodeRow.append(episode.revocationPercentage, column: "revocation_percentage")
            try episodeRow.append(episode.billingPlan.rawValue, column: "billing_plan")
            try episodeRow.append(episode.installmentsAtRisk, column: "installments_at_risk")
            try episodeRow.append(episode.openingPrice, column: "opening_price")
            try episodeRow.append(episode.periodDays, column: "period_days")
            try episodeRow.append(episode.provenRecoveryTransactionId, column: "proven_recovery_transaction_id")
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
            try analysisRow.append(environment, column: "environment")
            try analysisRow.append(subscription, column: "original_transaction_id")
            try analysisRow.append(quality.outsideEnvironment, column: "outside_environment")
            try analysisRow.append(quality.familySharedSkipped, column: "family_shared_skipped")
            try analysisRow.append(quality.orphanDidRenewBillingRecovery, column: "orphan_did_renew_billing_recovery")
            try analysisRow.append(quality.orphanExpiredBillingRetry, column: "orphan_expired_billing_retry")
            try analysisRow.append(quality.orphanGracePeriodExpired, column: "orphan_grace_period_expired")
            try analysisRow.append(quality.staleFailureNotice, column: "stale_failure_notice")
            try analysisRow.append(quality.lateFailureNotice, column: "late_failure_notice")
            try analysisRow.endRow()
            try analysis.append(analysisRow.bytes)
        }
        linkRow.removeAll()
        for entry in result.customer.links {
            try linkRow.append(environment, column: "environment")
            try linkRow.append(subscription, column: "original_transaction_id")
            try linkRow.append(entry.link.key, column: "link")
            try linkRow.append(milliseconds: entry.firstSigned, column: "first_signed")
            try linkRow.endRow()
        }
        try links.append(linkRow.bytes)
        purchaseRow.removeAll()
        for purchase in result.customer.purchases {
            try purchaseRow.append(environment, column: "environment")
            try purchaseRow.append(subscription, column: "original_transaction_id")
            try purchaseRow.append(milliseconds: purchase.purchaseDate, column: "purchase_date")
            try purchaseRow.append(milliseconds: purchase.signedDate, column: "signed_date")
            try purchaseRow.append(purchase.notificationUUID, column: "notification_uuid")
            try purchaseRow.append(purchase.notificationType, column: "notification_type")
            try purchaseRow.append(purchase.subtype, column: "subtype")
            try purchaseRow.append(purchase.bundleId, column: "bundle_id")
            try purchaseRow.append(purchase.productId, column: "product_id")
            try purchaseRow.endRow()
        }
        try purchases.append(purchaseRow.bytes)
        renewalRow.removeAll()
        for entry in result.renewals.entries where entry.count > 0 {
            try renewalRow.append(environment, column: "environment")
            try renewalRow.append(subscription, column: "original_transaction_id")
            try renewalRow.append(entry.period.description, column: "month")
            try renewalRow.append(entry.count, column: "renewals")
            try renewalRow.endRow()
            renewalTotals.add(entry.period, count: entry.count)
        }
        try renewals.write(renewalRow.bytes)
    }
}
