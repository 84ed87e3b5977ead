/// One stretch of billing retry for one subscription: from the failed renewal to its outcome (or the as-of time).
///
/// Times are Unix milliseconds. See METRICS.md, "Billing-issue episodes".
package struct Episode: Hashable, Sendable {
    /// How an episode ended; `open` when it had not ended by the as-of time.
    package enum Outcome: String, Hashable, Sendable, CaseIterable {
        /// A `DID_RENEW` closed it (the App Store collected the payment), or a new paid purchase did (see
        /// ``RecoveredBy``).
        case recovered
        /// `EXPIRED`/`BILLING_RETRY`, or no closing notification within the retry window (``endInferred``): the
        /// retry period ended unpaid (involuntary churn).
        case expired
        /// `DID_CHANGE_RENEWAL_STATUS`/`AUTO_RENEW_DISABLED` or `EXPIRED`/`VOLUNTARY`: a voluntary exit during retry.
        case cancelled
        /// `EXPIRED` with another subtype (or none), `REFUND`, `REVOKE`.
        case other
        /// No closing notification by the as-of time, still inside the retry window; censored there.
        case open
    }

    /// What made a `recovered` episode recovered.
    package enum RecoveredBy: String, Hashable, Sendable, CaseIterable {
        /// A `DID_RENEW` (usually `BILLING_RECOVERY`): billing retry collected the failed renewal.
        case retry
        /// A new paid purchase (`SUBSCRIBED`, `OFFER_REDEEMED`, `DID_CHANGE_RENEWAL_PREF`/`UPGRADE`) after t0.
        case newPurchase = "new_purchase"
    }

    /// Billing retry lasts at most 60 days: an episode not closed by then ends `expired` at `start` plus this.
    package static let retryWindow: Int64 = 60 * Milliseconds.day
    /// A notification signed later than `start` plus this closes nothing; an episode still open then, or at the
    /// as-of time, has ended by inference. Also the age from which an episode is mature.
    package static let retryHorizon: Int64 = 61 * Milliseconds.day

    /// The `originalTransactionId`.
    package var subscription: String
    /// 1 for the subscription's first episode, 2 for the next, … (within the report's scope).
    package var sequence: Int
    package var environment: String
    /// From the opening notification's transaction.
    package var productId: String?
    /// From the opening notification's transaction.
    package var storefront: String?
    /// `t0`: the opening transaction's `expiresDate`, else the opening notification's `signedDate`.
    package var start: Int64
    package var hasGrace: Bool
    /// The grace period's end: the first `gracePeriodExpiresDate` that dates this episode's period, or `start` plus
    /// the usual grace length (``graceEndInferred``); nil when unknown or without grace.
    package var graceEnd: Int64?
    /// When the episode closed; nil while `open`.
    package var end: Int64?
    package var outcome: Outcome
    /// The recovering transaction's price (milliunits), for `recovered` episodes.
    package var recoveryPrice: Int64?
    /// The recovering transaction's currency, for `recovered` episodes.
    package var recoveryCurrency: String?
    /// For `recovered` episodes: a retry (`DID_RENEW`) or a new paid purchase; nil otherwise.
    package var recoveredBy: RecoveredBy?
    /// The episode ended `expired` at `start` + 60 days because no closing notification came within the window.
    package var endInferred: Bool
    /// `graceEnd` is `start` plus the grace length of the product (or app), not a date from a notification.
    package var graceEndInferred: Bool
    /// The price at stake (milliunits): the opening notification's `renewalPrice`, else its transaction's `price`.
    package var stakePrice: Int64?
    /// The currency of ``stakePrice``.
    package var stakeCurrency: String?
    /// The opening notification's `bundleId`, for the app-wide grace length.
    package var bundleId: String?
    package var openingNotificationUUID: String
    package var closingNotificationUUID: String?
    /// The offer of the opening transaction (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    package var offerType: Int32?
    /// The discount of the opening transaction's offer (`FREE_TRIAL`, …).
    package var offerDiscountType: String?
    /// The failed renewal was the first charge after a free trial: the opening transaction's
    /// `offerDiscountType` is `FREE_TRIAL` (whatever its offer type).
    package var isTrialConversion: Bool
    /// The latest non-empty `appAccountToken` among the subscription's notifications that count (its transactions
    /// and renewal infos), as of the episode's build: the app's own user id, for reaching the customer.
    package var appAccountToken: String?
    /// A refund's `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`) when one touched the episode:
    /// the `REFUND` or `REVOKE` that ended it, or a later refund of the transaction that recovered it.
    package var revocationType: String?
    /// That refund's `revocationPercentage`: the refunded share in milli-percent (50000 is 50 %).
    package var revocationPercentage: Int32?

    package init(
        subscription: String,
        sequence: Int = 1,
        environment: String = "Production",
        productId: String? = nil,
        storefront: String? = nil,
        start: Int64,
        hasGrace: Bool = false,
        graceEnd: Int64? = nil,
        end: Int64? = nil,
        outcome: Outcome,
        recoveryPrice: Int64? = nil,
        recoveryCurrency: String? = nil,
        recoveredBy: RecoveredBy? = nil,
        endInferred: Bool = false,
        graceEndInferred: Bool = false,
        stakePrice: Int64? = nil,
        stakeCurrency: String? = nil,
        bundleId: String? = nil,
        openingNotificationUUID: String,
        closingNotificationUUID: String? = nil,
        offerType: Int32? = nil,
        offerDiscountType: String? = nil,
        isTrialConversion: Bool = false,
        appAccountToken: String? = nil,
        revocationType: String? = nil,
        revocationPercentage: Int32? = nil
    ) {
        self.subscription = subscription
        self.sequence = sequence
        self.environment = environment
        self.productId = productId
        self.storefront = storefront
        self.start = start
        self.hasGrace = hasGrace
        self.graceEnd = graceEnd
        self.end = end
        self.outcome = outcome
        self.recoveryPrice = recoveryPrice
        self.recoveryCurrency = recoveryCurrency
        self.recoveredBy = recoveredBy ?? (outcome == .recovered ? .retry : nil)
        self.endInferred = endInferred
        self.graceEndInferred = graceEndInferred
        self.stakePrice = stakePrice
        self.stakeCurrency = stakeCurrency
        self.bundleId = bundleId
        self.openingNotificationUUID = openingNotificationUUID
        self.closingNotificationUUID = closingNotificationUUID
        self.offerType = offerType
        self.offerDiscountType = offerDiscountType
        self.isTrialConversion = isTrialConversion
        self.appAccountToken = appAccountToken
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
    }

    package var isOpen: Bool { outcome == .open }

    /// End time (or `asOf` while open) minus `start`, never below 0.
    package func duration(asOf: Int64) -> Int64 {
        Milliseconds.elapsed(from: start, to: end ?? asOf)
    }

    /// Mature: `start` + 61 days ≤ `asOf`, so the outcome can no longer change.
    package func isMature(asOf: Int64) -> Bool {
        guard let maturesAt else { return false }
        return maturesAt <= asOf
    }

    /// The end of the retry window, `start` + 60 days: where the episode ends by inference when it is still open at
    /// maturity (``closeRetryWindow(asOf:)``). Nil when that time is not representable.
    package var retryWindowEnd: Int64? {
        let (end, overflow) = start.addingReportingOverflow(Self.retryWindow)
        return overflow ? nil : end
    }

    /// When the episode matures, `start` + 61 days (``isMature(asOf:)``). Nil when that time is not representable.
    package var maturesAt: Int64? {
        let (horizon, overflow) = start.addingReportingOverflow(Self.retryHorizon)
        return overflow ? nil : horizon
    }

    /// A grace period whose end is not known (no date in any notification, and no grace length to infer it from).
    package var isGraceEndUnknown: Bool { hasGrace && graceEnd == nil }

    /// When the episode counts in the weekly flows: max(end, start); nil while open.
    package var flowTime: Int64? { end.map { max($0, start) } }

    /// Ends an episode still open at `asOf` by inference when its retry window is over (`start` + 61 days ≤ asOf):
    /// `expired` at `start` + 60 days, ``endInferred``.
    /// - Returns: true when it ended here.
    @discardableResult
    package mutating func closeRetryWindow(asOf: Int64) -> Bool {
        guard isOpen, isMature(asOf: asOf) else { return false }
        outcome = .expired
        end = retryWindowEnd
        endInferred = true
        return true
    }

    /// Recovered, with a grace period, at or before its known `graceEnd`.
    package var isSavedInGrace: Bool {
        guard outcome == .recovered, hasGrace, let graceEnd, let end else { return false }
        return end <= graceEnd
    }

    /// Whether the grace period's result is known: the episode closed, or its grace ended by `asOf`.
    package func isGraceDecided(asOf: Int64) -> Bool {
        guard isOpen else { return true }
        guard let graceEnd else { return false }
        return graceEnd <= asOf
    }

    /// The cohort period of `start`.
    package func cohort(_ granularity: CalendarPeriod.Granularity) -> CalendarPeriod {
        CalendarPeriod(granularity, containing: start)
    }

    /// `YYYY-MM` of `start` (UTC).
    package var cohortMonth: String { cohort(.month).description }

    /// `YYYY-Www` of `start` (ISO 8601 week, UTC).
    package var cohortWeek: String { cohort(.week).description }
}
