import NotificationTypes

/// The episode state machine of one subscription (METRICS.md, "Billing-issue episodes", v2).
///
/// Fed the subscription's notifications in processing order, after the filters. For each notification, in the
/// contract's rule order:
/// 1. an open episode whose retry window is over (signed later than `t0` + (W + 1) days, W of its plan) ends
///    `expired` at `t0` + W days, by inference;
/// 2. the open episode's grace end is filled in from the notification when it dates this episode's period;
/// 3. the notification opens an episode, is marked stale, pairs with an orphan recovery, closes the open
///    episode, or counts as an orphan;
/// 4. `paid_through` moves to the notification's `expiresDate` when it is a paid period's notification.
struct SubscriptionState {
    /// A `DID_RENEW`/`BILLING_RECOVERY` that came with no episode open, waiting for a late failure notice.
    private struct OrphanRecovery {
        var time: Int64
        var price: Int64?
        var currency: String?
        var notificationUUID: String
        var transactionId: String?
        var isPaired = false
    }

    var result: SubscriptionEpisodes
    let environment: String
    /// The open episode.
    private var current: Episode?
    /// The open episode's `t0` came from its opening notification's `signedDate` (no `expiresDate`): then only
    /// the opening notification dates its grace period.
    private var currentStartIsSigned = false
    /// The latest `expiresDate` of the paid-period notifications processed so far.
    private var paidThrough: Int64?
    private var orphanRecoveries: [OrphanRecovery] = []
    /// The recovering transaction of each recovered episode, by `transactionId`: its index in `result.episodes`, so
    /// that a later refund of that charge is shown on the episode.
    private var recoveries: [String: Int] = [:]
    /// The latest non-empty `appAccountToken` of the notifications processed so far.
    private var appAccountToken: String?
    /// The latest episode ended by inference (rule 1) and none has opened since: the first
    /// `EXPIRED`/`BILLING_RETRY` after it is its late closing notification and counts in no check.
    private var awaitsLateExpiry = false
    /// Renewals Apple's transaction history proved that no episode has used yet (``ProvenRecovery``).
    private var provenRecoveries: [ProvenRecovery]

    init(result: SubscriptionEpisodes, environment: String, provenRecoveries: [ProvenRecovery] = []) {
        self.result = result
        self.environment = environment
        self.provenRecoveries = provenRecoveries
    }

    /// The notification types whose transaction is a paid period: they move `paid_through`.
    private static func isPaidPeriod(_ type: NotificationTypeV2?) -> Bool {
        switch type {
        case .didRenew, .subscribed, .offerRedeemed, .didChangeRenewalPref: return true
        default: return false
        }
    }

    mutating func apply(_ event: NotificationEvent, subscription: String) {
        result.customer.add(event, subscription: subscription)
        if let token = event.appAccountToken, !token.isEmpty { appAccountToken = token }
        if event.notificationType == .didRenew, event.subtype != .billingRecovery {
            result.renewals.add(CalendarPeriod(monthContaining: event.signedDate))
        }
        // 1. The retry window.
        if let open = current,
            Milliseconds.elapsed(from: open.start, to: event.signedDate) > open.billingPlan.retryHorizon
        {
            endByInference()
        }
        // 2. The grace end.
        if let graceEnd = event.gracePeriodExpiresDate, let open = current, open.hasGrace, open.graceEnd == nil,
            !currentStartIsSigned, event.expiresDate == open.start
        {
            current?.graceEnd = graceEnd
        }
        // 3. Open, stale, pair, close or orphan.
        if current == nil {
            applyWithoutEpisode(event, subscription: subscription)
        } else {
            applyToOpenEpisode(event)
        }
        // 4. paid_through.
        if let expires = event.expiresDate, Self.isPaidPeriod(event.notificationType) {
            paidThrough = max(paidThrough ?? expires, expires)
        }
    }

    /// The subscription's results: episodes in order of start, numbered from 1, each with the subscription's latest
    /// `appAccountToken`; an open episode stays open.
    mutating func finish() -> SubscriptionEpisodes {
        if var open = current.take() {
            // No notification ended it; a proven renewal within its window did.
            if closeByProvenRecovery(&open), let transaction = open.provenRecoveryTransactionId {
                recoveries[transaction] = result.episodes.count
            }
            result.episodes.append(open)
        }
        // Late failure notices can add episodes out of order; the sort is stable for equal starts.
        let isOrdered = zip(result.episodes, result.episodes.dropFirst()).allSatisfy { $0.start <= $1.start }
        if !isOrdered {
            result.episodes = result.episodes.enumerated().sorted { lhs, rhs in
                lhs.element.start != rhs.element.start
                    ? lhs.element.start < rhs.element.start : lhs.offset < rhs.offset
            }.map(\.element)
        }
        for index in result.episodes.indices {
            result.episodes[index].sequence = index + 1
            result.episodes[index].appAccountToken = appAccountToken
        }
        return result
    }

    // MARK: - Rules

    private mutating func endByInference() {
        guard var open = current.take() else { return }
        // The notifications leave the end unknown; a renewal Apple's transaction history proved within the window
        // says how it ended.
        if closeByProvenRecovery(&open) {
            if let transaction = open.provenRecoveryTransactionId { recoveries[transaction] = result.episodes.count }
            result.episodes.append(open)
            return
        }
        open.outcome = .expired
        open.end = open.start + open.billingPlan.retryWindow
        open.endInferred = true
        open.recoveredBy = nil
        result.episodes.append(open)
        awaitsLateExpiry = true
    }

    private mutating func applyWithoutEpisode(_ event: NotificationEvent, subscription: String) {
        switch (event.notificationType, event.subtype) {
        case (.didFailToRenew?, _):
            if let expires = event.expiresDate, let paidThrough, expires < paidThrough {
                let plan = Episode.BillingPlan(billingPlanType: event.billingPlanType)
                if let recovery = pairableRecovery(forPeriodEndingAt: expires, plan: plan) {
                    pair(event, subscription: subscription, with: recovery)
                } else {
                    result.dataQuality.staleFailureNotice += 1
                }
                return
            }
            current = Self.openEpisode(event, subscription: subscription, environment: environment)
            currentStartIsSigned = event.expiresDate == nil
            awaitsLateExpiry = false
        case (.didRenew?, .billingRecovery?):
            result.dataQuality.orphanDidRenewBillingRecovery += 1
            orphanRecoveries.append(
                OrphanRecovery(
                    time: event.purchaseDate ?? event.signedDate, price: event.price, currency: event.currency,
                    notificationUUID: event.notificationUUID, transactionId: event.transactionId))
        case (.expired?, .billingRetry?):
            if awaitsLateExpiry {
                awaitsLateExpiry = false
            } else {
                result.dataQuality.orphanExpiredBillingRetry += 1
            }
        case (.gracePeriodExpired?, _):
            result.dataQuality.orphanGracePeriodExpired += 1
        case (.refund?, _):
            // A refund of the charge that recovered an episode: shown on that episode.
            if let transaction = event.transactionId, let index = recoveries[transaction] {
                result.episodes[index].revocationType = event.revocationType
                result.episodes[index].revocationPercentage = event.revocationPercentage
            }
        default:
            break
        }
    }

    /// Ends `episode` `recovered` by retry at the purchase of the first unused proven renewal within its retry window;
    /// false, and `episode` as it was, when there is none.
    private mutating func closeByProvenRecovery(_ episode: inout Episode) -> Bool {
        guard let index = provenRecoveries.firstIndex(where: { $0.recovers(episode) }) else { return false }
        let proof = provenRecoveries.remove(at: index)
        episode.outcome = .recovered
        episode.recoveredBy = .retry
        episode.end = proof.purchaseDate
        episode.endInferred = false
        episode.recoveryPrice = proof.price
        episode.recoveryCurrency = proof.currency
        episode.closingNotificationUUID = nil
        episode.provenRecoveryTransactionId = proof.transactionId
        return true
    }

    /// The first unpaired orphan recovery in [t0, t0 + (W + 1) days) of the notice's plan, unless an episode already
    /// started at t0.
    private func pairableRecovery(forPeriodEndingAt start: Int64, plan: Episode.BillingPlan) -> Int? {
        guard !result.episodes.contains(where: { $0.start == start }) else { return nil }
        return orphanRecoveries.firstIndex { recovery in
            !recovery.isPaired && recovery.time >= start && recovery.time - start < plan.retryHorizon
        }
    }

    /// A failure notice that came after its own recovery: one recovered episode from the notice's period end
    /// to the recovery; the recovery is no orphan any more, the notice not stale.
    private mutating func pair(_ notice: NotificationEvent, subscription: String, with index: Int) {
        orphanRecoveries[index].isPaired = true
        let recovery = orphanRecoveries[index]
        var episode = Self.openEpisode(notice, subscription: subscription, environment: environment)
        episode.outcome = .recovered
        episode.recoveredBy = .retry
        episode.end = recovery.time
        episode.recoveryPrice = recovery.price
        episode.recoveryCurrency = recovery.currency
        episode.closingNotificationUUID = recovery.notificationUUID
        if let transaction = recovery.transactionId { recoveries[transaction] = result.episodes.count }
        result.episodes.append(episode)
        result.dataQuality.orphanDidRenewBillingRecovery -= 1
        result.dataQuality.lateFailureNotice += 1
    }

    private mutating func applyToOpenEpisode(_ event: NotificationEvent) {
        guard let open = current else { return }
        let closing: (outcome: Episode.Outcome, end: Int64, recoveredBy: Episode.RecoveredBy?)
        switch (event.notificationType, event.subtype) {
        case (.didRenew?, _):
            closing = (.recovered, event.purchaseDate ?? event.signedDate, .retry)
        case (.subscribed?, _), (.offerRedeemed?, _), (.didChangeRenewalPref?, .upgrade?):
            // A new paid purchase after t0 made the subscription active again; anything else leaves retry open.
            guard let purchase = event.purchaseDate, purchase > open.start, let price = event.price, price > 0 else {
                return
            }
            closing = (.recovered, purchase, .newPurchase)
        case (.expired?, .billingRetry?):
            closing = (.expired, event.signedDate, nil)
        case (.didChangeRenewalStatus?, .autoRenewDisabled?) where open.billingPlan == .commitment:
            // A commitment's installments go on being billed: turning auto-renew off cancels the next commitment only.
            return
        case (.expired?, .voluntary?), (.didChangeRenewalStatus?, .autoRenewDisabled?):
            closing = (.cancelled, event.signedDate, nil)
        case (.expired?, _), (.refund?, _), (.revoke?, _):
            closing = (.other, event.signedDate, nil)
        default:
            // DID_FAIL_TO_RENEW, GRACE_PERIOD_EXPIRED and everything else leave the episode open.
            return
        }
        guard var closed = current.take() else { return }
        closed.outcome = closing.outcome
        closed.end = closing.end
        closed.recoveredBy = closing.recoveredBy
        if closing.outcome == .recovered {
            closed.recoveryPrice = event.price
            closed.recoveryCurrency = event.currency
            if let transaction = event.transactionId { recoveries[transaction] = result.episodes.count }
        }
        if event.notificationType == .refund || event.notificationType == .revoke {
            closed.revocationType = event.revocationType
            closed.revocationPercentage = event.revocationPercentage
        }
        closed.closingNotificationUUID = event.notificationUUID
        result.episodes.append(closed)
    }

    /// The opening transaction's period in whole days when it was paid (``Episode/periodDays``).
    private static func paidPeriodDays(_ event: NotificationEvent) -> Int? {
        guard let price = event.price, price > 0, let purchase = event.purchaseDate, let expires = event.expiresDate,
            let days = GraceLengths.days(from: purchase, to: expires), days > 0
        else { return nil }
        return days
    }

    /// An open episode from its opening (failure) notification; `sequence` is set when the subscription ends.
    private static func openEpisode(_ event: NotificationEvent, subscription: String, environment: String) -> Episode {
        let hasGrace = event.subtype == .gracePeriod || event.gracePeriodExpiresDate != nil
        // The price at stake: what the failed renewal would have charged.
        let stake: (price: Int64?, currency: String?) =
            event.renewalPrice != nil
            ? (event.renewalPrice, event.renewalCurrency ?? event.currency) : (event.price, event.currency)
        let plan = Episode.BillingPlan(billingPlanType: event.billingPlanType)
        return Episode(
            subscription: subscription,
            sequence: 0,
            environment: environment,
            productId: event.productId,
            storefront: event.storefront,
            start: event.expiresDate ?? event.signedDate,
            hasGrace: hasGrace,
            graceEnd: hasGrace ? event.gracePeriodExpiresDate : nil,
            outcome: .open,
            stakePrice: stake.price,
            stakeCurrency: stake.currency,
            bundleId: event.bundleId,
            openingNotificationUUID: event.notificationUUID,
            offerType: event.offerType,
            offerDiscountType: event.offerDiscountType,
            isTrialConversion: event.offerDiscountType == "FREE_TRIAL",
            billingPlan: plan,
            installmentsAtRisk: plan == .commitment
                ? Episode.installmentsAtRisk(
                    billingPeriodNumber: event.commitmentBillingPeriodNumber,
                    totalBillingPeriods: event.commitmentTotalBillingPeriods) : 1,
            openingPrice: event.price,
            periodDays: Self.paidPeriodDays(event)
        )
    }
}
