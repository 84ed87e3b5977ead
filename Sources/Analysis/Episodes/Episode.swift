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

    /// How the subscription bills (METRICS.md v2.2, "Commitment plans"): from the opening notification's
    /// transaction's `billingPlanType`.
    package enum BillingPlan: String, Hashable, Sendable, CaseIterable {
        /// Any `billingPlanType` other than `MONTHLY`, or none: billing retry lasts up to 60 days.
        case standard
        /// `MONTHLY`: a monthly subscription with a 12-month commitment. Billing retry lasts up to 90 days, no grace
        /// period applies, and turning auto-renew off cancels only the next commitment.
        case commitment

        /// The plan of an opening notification's transaction `billingPlanType`.
        package init(billingPlanType: String?) {
            self = billingPlanType == "MONTHLY" ? .commitment : .standard
        }

        /// W: the longest billing retry, in days (60, or 90 under a commitment).
        package var retryWindowDays: Int { self == .commitment ? 90 : 60 }

        /// W × 24 h: an episode not closed by then ends `expired` at `start` plus this.
        package var retryWindow: Int64 { Int64(retryWindowDays) * Milliseconds.day }

        /// (W + 1) × 24 h: a notification signed later than `start` plus this closes nothing; an episode still open
        /// then, or at the as-of time, has ended by inference. Also the age from which an episode is mature.
        package var retryHorizon: Int64 { retryWindow + Milliseconds.day }
    }

    /// Billing retry of a standard plan lasts at most 60 days (``BillingPlan/retryWindow``).
    package static let retryWindow: Int64 = BillingPlan.standard.retryWindow
    /// The maturity age of a standard plan's episode, 61 days (``BillingPlan/retryHorizon``).
    package static let retryHorizon: Int64 = BillingPlan.standard.retryHorizon

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
    /// `commitment` when the opening notification's transaction bills monthly under a 12-month commitment.
    package var billingPlan: BillingPlan
    /// What a commitment still owes, in installments: N − n of the opening transaction's `commitmentInfo` when both
    /// are known and n < N, else 1 (always 1 for a standard plan).
    package var installmentsAtRisk: Int
    /// The opening transaction's `price` (milliunits): 0 for a free trial's period.
    package var openingPrice: Int64?
    /// The opening transaction's period in whole days, ⌊(`expiresDate` − `purchaseDate`) / 24 h + ½⌋, when it was
    /// paid (`price` > 0) and lasted at least half a day; nil otherwise. Its product's most frequent value is the product's period (``GraceWhatIf``).
    package var periodDays: Int?
    /// The renewal Apple's transaction history proved (``ProvenRecovery``) that ended this episode where no
    /// notification did; nil for every episode a notification ended, or that is still open.
    package var provenRecoveryTransactionId: String?

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
        revocationPercentage: Int32? = nil,
        billingPlan: BillingPlan = .standard,
        installmentsAtRisk: Int = 1,
        openingPrice: Int64? = nil,
        periodDays: Int? = nil,
        provenRecoveryTransactionId: String? = nil
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
        self.billingPlan = billingPlan
        self.installmentsAtRisk = installmentsAtRisk
        self.openingPrice = openingPrice
        self.periodDays = periodDays
        self.provenRecoveryTransactionId = provenRecoveryTransactionId
    }

    /// The failed renewal was the first charge after a free trial, as the grace setting's renewal type reads it
    /// (METRICS.md v2.2): the opening transaction's `offerDiscountType` is `FREE_TRIAL`, or its `offerType` is 1
    /// (introductory) at price 0.
    package var isFreeTrialRenewal: Bool {
        isTrialConversion || (offerType == 1 && openingPrice == 0)
    }

    /// Installments at risk (METRICS.md v2.2): N − n when both are known and n < N, else 1.
    /// - Parameters:
    ///   - billingPeriodNumber: n, the opening transaction's `commitmentInfo.billingPeriodNumber` (the last paid).
    ///   - totalBillingPeriods: N, its `commitmentInfo.totalBillingPeriods`.
    package static func installmentsAtRisk(billingPeriodNumber: Int32?, totalBillingPeriods: Int32?) -> Int {
        guard let n = billingPeriodNumber, let total = totalBillingPeriods, n < total else { return 1 }
        return Int(total) - Int(n)
    }

    /// The price at stake times ``installmentsAtRisk`` (milliunits): what a commitment still owes if the payment is
    /// recovered, and what its end loses if not. Nil without a price at stake; a product that does not fit in 64
    /// bits saturates, so that a sum of it does not fit either.
    package var commitmentStake: Int64? {
        guard let stakePrice else { return nil }
        let (product, overflow) = stakePrice.multipliedReportingOverflow(by: Int64(installmentsAtRisk))
        guard overflow else { return product }
        return stakePrice < 0 ? .min : .max
    }

    package var isOpen: Bool { outcome == .open }

    /// End time (or `asOf` while open) minus `start`, never below 0.
    package func duration(asOf: Int64) -> Int64 {
        Milliseconds.elapsed(from: start, to: end ?? asOf)
    }

    /// Mature: `start` + (W + 1) days ≤ `asOf`, so the outcome can no longer change.
    package func isMature(asOf: Int64) -> Bool {
        guard let maturesAt else { return false }
        return maturesAt <= asOf
    }

    /// The end of the retry window, `start` + W days (60, or 90 under a commitment): where the episode ends by
    /// inference when it is still open at maturity (``closeRetryWindow(asOf:)``). Nil when that time is not
    /// representable.
    package var retryWindowEnd: Int64? {
        let (end, overflow) = start.addingReportingOverflow(billingPlan.retryWindow)
        return overflow ? nil : end
    }

    /// When the episode matures, `start` + (W + 1) days (``isMature(asOf:)``). Nil when that time is not
    /// representable.
    package var maturesAt: Int64? {
        let (horizon, overflow) = start.addingReportingOverflow(billingPlan.retryHorizon)
        return overflow ? nil : horizon
    }

    /// A commitment episode whose notifications announced a grace period, which Apple does not apply to
    /// commitment plans (`commitment_grace` in data quality).
    package var isCommitmentGrace: Bool { billingPlan == .commitment && hasGrace }

    /// A grace period whose end is not known (no date in any notification, and no grace length to infer it from).
    package var isGraceEndUnknown: Bool { hasGrace && graceEnd == nil }

    /// When the episode counts in the weekly flows: max(end, start); nil while open.
    package var flowTime: Int64? { end.map { max($0, start) } }

    /// Ends an episode still open at `asOf` by inference when its retry window is over (`start` + (W + 1) days ≤
    /// asOf): `expired` at `start` + W days, ``endInferred``.
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
