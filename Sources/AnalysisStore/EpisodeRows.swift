import Analysis
import PGClient
import Store

/// Encodes builder results as COPY rows for the episode tables (episodes, data quality, renewals, customer links and
/// purchases), each row in the order of its table's
/// declaration (``StoredTables``).
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
    private var row = CopyText()

    init(environment: String) {
        self.environment = environment
    }

    /// Encodes one subscription's results: its renewal rows into `renewals`, the rest into the spools.
    mutating func add(_ result: SubscriptionEpisodes, renewalsTo renewals: inout PGCopyWriter) throws {
        let subscription = result.subscription ?? ""
        row.removeAll()
        for episode in result.episodes {
            try row.append(environment)
            try row.append(subscription)
            row.append(episode.sequence)
            try row.append(episode.productId)
            try row.append(episode.storefront)
            try appendTimestamp(episode.start)
            row.append(episode.hasGrace)
            try appendTimestamp(episode.graceEnd)
            try appendTimestamp(episode.end)
            try row.append(episode.outcome.rawValue)
            if let end = episode.end {
                // Whole days plus the rest, so psql shows "20 days 06:00:00" rather than "486:00:00".
                let elapsed = Milliseconds.elapsed(from: episode.start, to: end)
                row.appendVerbatim(
                    Array("\(elapsed / Milliseconds.day) days \(elapsed % Milliseconds.day) milliseconds".utf8))
            } else {
                row.appendNull()
            }
            row.append(episode.isSavedInGrace)
            row.append(episode.recoveryPrice)
            try row.append(episode.recoveryCurrency)
            try row.append(episode.cohortMonth)
            try row.append(episode.cohortWeek)
            row.append(episode.offerType)
            try row.append(episode.offerDiscountType)
            row.append(episode.isTrialConversion)
            try row.append(episode.openingNotificationUUID)
            try row.append(episode.closingNotificationUUID)
            try row.append(episode.recoveredBy?.rawValue)
            row.append(episode.endInferred)
            row.append(episode.graceEndInferred)
            row.append(episode.stakePrice)
            try row.append(episode.stakeCurrency)
            try row.append(episode.bundleId)
            try row.append(episode.appAccountToken)
            row.append(episode.graceDays)
            appendTimestampIfRepresentable(episode.retryWindowEnd)
            appendTimestampIfRepresentable(episode.maturesAt)
            try row.append(episode.revocationType)
            row.append(episode.revocationPercentage)
            try row.append(episode.billingPlan.rawValue)
            row.append(episode.installmentsAtRisk)
            row.append(episode.openingPrice)
            row.append(episode.periodDays)
            try row.append(episode.provenRecoveryTransactionId)
            row.endRow()
            episodeCount += 1
        }
        try episodes.append(row.bytes)

        let quality = result.dataQuality
        if quality.outsideEnvironment + quality.familySharedSkipped + quality.orphanDidRenewBillingRecovery
            + quality.orphanExpiredBillingRetry + quality.orphanGracePeriodExpired + quality.staleFailureNotice
            + quality.lateFailureNotice > 0
        {
            row.removeAll()
            try row.append(environment)
            try row.append(subscription)
            row.append(quality.outsideEnvironment)
            row.append(quality.familySharedSkipped)
            row.append(quality.orphanDidRenewBillingRecovery)
            row.append(quality.orphanExpiredBillingRetry)
            row.append(quality.orphanGracePeriodExpired)
            row.append(quality.staleFailureNotice)
            row.append(quality.lateFailureNotice)
            row.endRow()
            try analysis.append(row.bytes)
        }
        row.removeAll()
        for entry in result.customer.links {
            try row.append(environment)
            try row.append(subscription)
            try row.append(entry.link.key)
            try appendTimestamp(entry.firstSigned)
            row.endRow()
        }
        try links.append(row.bytes)
        row.removeAll()
        for purchase in result.customer.purchases {
            try row.append(environment)
            try row.append(subscription)
            try appendTimestamp(purchase.purchaseDate)
            try appendTimestamp(purchase.signedDate)
            try row.append(purchase.notificationUUID)
            try row.append(purchase.notificationType)
            try row.append(purchase.subtype)
            try row.append(purchase.bundleId)
            try row.append(purchase.productId)
            row.endRow()
        }
        try purchases.append(row.bytes)
        row.removeAll()
        for entry in result.renewals.entries where entry.count > 0 {
            try row.append(environment)
            try row.append(subscription)
            try row.append(entry.period.description)
            row.append(entry.count)
            row.endRow()
            renewalTotals.add(entry.period, count: entry.count)
        }
        try renewals.write(row.bytes)
    }

    private mutating func appendTimestamp(_ milliseconds: Int64?) throws {
        guard let milliseconds else { return row.appendNull() }
        guard let text = PGTimestamp.text(milliseconds: milliseconds) else {
            throw PGError(kind: .invalidValue, message: "episode time \(milliseconds) is outside the years 1–9999")
        }
        row.appendVerbatim(text)
    }

    /// A time past the years 1–9999 as NULL: the retry window of an episode that starts in the last days of 9999
    /// ends where no timestamp reaches, and such an episode never matures (``Episode/isMature(asOf:)``).
    private mutating func appendTimestampIfRepresentable(_ milliseconds: Int64?) {
        guard let milliseconds, let text = PGTimestamp.text(milliseconds: milliseconds) else { return row.appendNull() }
        row.appendVerbatim(text)
    }
}
