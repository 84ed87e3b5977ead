import Analysis
import AppStoreNotifications

/// One billing-retry episode as the simulator meant it to happen: a row of the ground-truth file.
///
/// It follows METRICS.md (version 2) as of the end of the history: `start` (t0) is the failed transaction's
/// `expiresDate`; a recovery ends at the recovering transaction's `purchaseDate` (`recovered_by` `retry` for a
/// `DID_RENEW`, `new_purchase` for a new paid purchase), every other outcome at its notification's `signedDate`;
/// an episode whose `EXPIRED`/`BILLING_RETRY` never came is `expired` at t0 + 60 days (`end_inferred`) once
/// t0 + 61 days is within the history; an episode still open at the end of the history is `open`. A failure
/// notice signed after its recovery still makes one recovered episode (`late_failure_notice`). `grace_end` is the
/// real end of the grace period, also when no notification dated it (`grace_end_inferred`: an analysis has to
/// infer it). Family-shared and Sandbox episodes are included and told apart by `ownership` and `environment` (a
/// report counts only `PURCHASED` episodes of one environment).
package struct GroundTruthEpisode: Hashable, Sendable {
    /// The `originalTransactionId`.
    package var subscription: String
    /// 1 for the subscription's first episode, 2 for the next, …
    package var sequence: Int
    package var environment: String
    /// `PURCHASED` or `FAMILY_SHARED`.
    package var ownership: String
    package var productId: String
    package var storefront: String
    /// t0 (ms).
    package var start: Int64
    /// The end of the grace period (ms); nil without a grace period.
    package var graceEnd: Int64?
    /// When it closed (ms); nil while open.
    package var end: Int64?
    package var outcome: Episode.Outcome
    /// The recovering transaction's price (milliunits) and currency, for recovered episodes.
    package var recoveryPrice: Int64?
    package var currency: String?
    /// The failed charge was the first one after a free trial.
    package var isTrialConversion: Bool
    package var openingNotificationUUID: String
    package var closingNotificationUUID: String?
    /// For recovered episodes: billing retry collected the payment, or a new paid purchase ended retry.
    package var recoveredBy: Episode.RecoveredBy?
    /// The price at stake (milliunits): the opening notification's `renewalPrice`, else its transaction's `price`.
    package var stakePrice: Int64?
    /// The currency of ``stakePrice``.
    package var stakeCurrency: String?
    /// `start` + 61 days is at or before the end of the history: the outcome can no longer change.
    package var isMature: Bool
    /// No closing notification came: the episode ended `expired` at `start` + 60 days.
    package var isEndInferred: Bool
    /// No notification dated the grace period: ``graceEnd`` is known to the simulator only.
    package var isGraceEndInferred: Bool
    /// The failure notice that opened the episode was signed after the recovery that closed it.
    package var isLateFailureNotice: Bool
    /// Further copies of the failure notice sent after the recovery (each a `stale_failure_notice`).
    package var staleNotices: Int
    /// From the opening transaction's `billingPlanType`.
    package var billingPlan: Episode.BillingPlan = .standard
    /// N − n of the opening transaction's commitment (1 when unknown, or for a standard plan).
    package var installmentsAtRisk = 1
    /// With the app's sheet modelled: the episode's experiment arm (empty without one) and the retry days the sheet was
    /// shown (``SimulatedNotification/Opening/shownDays``).
    package var sheetArm: String?
    package var shownDays: [Int] = []

    /// `YYYY-MM` of `start` (UTC).
    package var cohort: String { CalendarPeriod(monthContaining: start).description }

    /// Recovered at or before the end of its grace period.
    package var isSavedInGrace: Bool {
        guard outcome == .recovered, let graceEnd, let end else { return false }
        return end <= graceEnd
    }

    /// The CSV columns, in order.
    package static let columns = [
        "subscription", "sequence", "environment", "ownership", "product_id", "storefront", "start_ms",
        "grace_end_ms", "end_ms", "outcome", "cohort", "recovery_price", "currency", "trial_conversion",
        "opening_uuid", "closing_uuid", "recovered_by", "stake_price", "stake_currency", "mature", "end_inferred",
        "grace_end_inferred", "late_failure_notice", "stale_notices",
    ]

    /// The columns of a history with commitment plans (``SimulationOptions/commitmentRate`` above 0): ``columns``,
    /// then each episode's plan and installments at risk.
    package static let columnsWithPlans = columns + ["billing_plan", "installments_at_risk"]

    /// The row's fields, in the order of ``columnsWithPlans``.
    package var fieldsWithPlans: [String] {
        fields + [billingPlan.rawValue, String(installmentsAtRisk)]
    }

    /// The columns of the sheets the app showed (``SimulationOptions/sheets``), after the others: the episode's arm
    /// and its shown days, `;`-separated.
    package static let sheetColumns = ["sheet_arm", "shown_days"]

    /// The columns of a history with the given plantings: ``columns``, then the plans' and the sheets' when planted.
    package static func columns(plans: Bool, sheets: Bool) -> [String] {
        (plans ? columnsWithPlans : columns) + (sheets ? sheetColumns : [])
    }

    /// The row's fields, in the order of ``columns(plans:sheets:)``.
    package func fields(plans: Bool, sheets: Bool) -> [String] {
        (plans ? fieldsWithPlans : fields)
            + (sheets ? [sheetArm ?? "", shownDays.map(String.init).joined(separator: ";")] : [])
    }

    /// The row's fields, in the order of ``columns``; absent values are empty.
    package var fields: [String] {
        [
            subscription, String(sequence), environment, ownership, productId, storefront, String(start),
            graceEnd.map(String.init) ?? "", end.map(String.init) ?? "", outcome.rawValue, cohort,
            recoveryPrice.map(String.init) ?? "", currency ?? "", String(isTrialConversion),
            openingNotificationUUID, closingNotificationUUID ?? "", recoveredBy?.rawValue ?? "",
            stakePrice.map(String.init) ?? "", stakeCurrency ?? "", String(isMature), String(isEndInferred),
            String(isGraceEndInferred), String(isLateFailureNotice), String(staleNotices),
        ]
    }

    /// The episodes of one account's subscriptions (one, unless the customer came back on a new one or it migrated),
    /// from the roles the simulator gave its notifications.
    /// - Parameters:
    ///   - notifications: one subscription's notifications, in signed order.
    ///   - asOf: the end of the history (ms, exclusive).
    package static func episodes(of notifications: [SimulatedNotification], asOf: Int64) -> [GroundTruthEpisode] {
        var opened: [Int: GroundTruthEpisode] = [:]
        var closings: [Int: SimulatedNotification] = [:]
        var staleNotices: [Int: Int] = [:]
        var unnotifiedExpiries = Set<Int>()
        for notification in notifications {
            guard let transaction = notification.transaction else { continue }
            switch notification.role {
            case .none:
                break
            case .opens(let opening):
                opened[opening.episode] = Self(opening: opening, by: notification, transaction: transaction, asOf: asOf)
                if opening.isExpiryUnnotified { unnotifiedExpiries.insert(opening.episode) }
            case .closes(let episode, _, _):
                closings[episode] = notification
            case .staleCopy(let episode):
                staleNotices[episode, default: 0] += 1
            }
        }
        // An episode exists once its failure notice was sent.
        // Numbered per subscription: a customer who comes back on a new subscription, or a migrated subscription,
        // starts again from 1.
        var sequences: [String: Int] = [:]
        return opened.keys.sorted().compactMap { number in
            guard var episode = opened[number] else { return nil }
            sequences[episode.subscription, default: 0] += 1
            episode.sequence = sequences[episode.subscription] ?? 1
            episode.staleNotices = staleNotices[number] ?? 0
            if let closing = closings[number] {
                episode.close(by: closing)
            } else if unnotifiedExpiries.contains(number), episode.isMature {
                // Retry ended at day 60, and the closing notification would be due by now.
                episode.outcome = .expired
                episode.end = episode.start + episode.billingPlan.retryWindow
                episode.isEndInferred = true
            }
            return episode
        }
    }

    /// An open episode from its opening notification.
    private init(
        opening: SimulatedNotification.Opening,
        by notification: SimulatedNotification,
        transaction: JWSTransactionDecodedPayload,
        asOf: Int64
    ) {
        let renewalInfo = notification.renewalInfo
        let hasRenewalPrice = renewalInfo?.renewalPrice != nil
        let plan = Episode.BillingPlan(billingPlanType: transaction.billingPlanType?.rawValue)
        self.init(
            subscription: transaction.originalTransactionId ?? "",
            sequence: 0,
            environment: notification.environment.rawValue,
            ownership: transaction.inAppOwnershipType?.rawValue ?? "",
            productId: transaction.productId ?? "",
            storefront: transaction.storefront ?? "",
            start: opening.start,
            graceEnd: opening.graceEnd,
            outcome: .open,
            isTrialConversion: transaction.offerDiscountType == .known(.freeTrial),
            openingNotificationUUID: notification.notificationUUID,
            stakePrice: hasRenewalPrice ? renewalInfo?.renewalPrice : transaction.price,
            stakeCurrency: hasRenewalPrice ? renewalInfo?.currency ?? transaction.currency : transaction.currency,
            isMature: opening.start <= asOf - plan.retryHorizon,
            isGraceEndInferred: opening.graceEnd != nil && opening.isGraceUndated,
            isLateFailureNotice: opening.isLate
        )
        billingPlan = plan
        sheetArm = opening.sheetArm
        shownDays = opening.shownDays
        if plan == .commitment {
            installmentsAtRisk = Episode.installmentsAtRisk(
                billingPeriodNumber: transaction.commitmentInfo?.billingPeriodNumber,
                totalBillingPeriods: transaction.commitmentInfo?.totalBillingPeriods)
        }
    }

    /// Ends the episode as its closing notification says.
    private mutating func close(by notification: SimulatedNotification) {
        guard case .closes(_, let outcome, let recoveredBy) = notification.role else { return }
        self.outcome = outcome
        closingNotificationUUID = notification.notificationUUID
        if outcome == .recovered, let transaction = notification.transaction {
            end = transaction.purchaseDate ?? notification.signedDate
            recoveryPrice = transaction.price
            currency = transaction.currency
            self.recoveredBy = recoveredBy ?? .retry
        } else {
            end = notification.signedDate
        }
    }

    package init(
        subscription: String,
        sequence: Int,
        environment: String,
        ownership: String,
        productId: String,
        storefront: String,
        start: Int64,
        graceEnd: Int64? = nil,
        end: Int64? = nil,
        outcome: Episode.Outcome,
        recoveryPrice: Int64? = nil,
        currency: String? = nil,
        isTrialConversion: Bool = false,
        openingNotificationUUID: String,
        closingNotificationUUID: String? = nil,
        recoveredBy: Episode.RecoveredBy? = nil,
        stakePrice: Int64? = nil,
        stakeCurrency: String? = nil,
        isMature: Bool = false,
        isEndInferred: Bool = false,
        isGraceEndInferred: Bool = false,
        isLateFailureNotice: Bool = false,
        staleNotices: Int = 0
    ) {
        self.subscription = subscription
        self.sequence = sequence
        self.environment = environment
        self.ownership = ownership
        self.productId = productId
        self.storefront = storefront
        self.start = start
        self.graceEnd = graceEnd
        self.end = end
        self.outcome = outcome
        self.recoveryPrice = recoveryPrice
        self.currency = currency
        self.isTrialConversion = isTrialConversion
        self.openingNotificationUUID = openingNotificationUUID
        self.closingNotificationUUID = closingNotificationUUID
        self.recoveredBy = recoveredBy
        self.stakePrice = stakePrice
        self.stakeCurrency = stakeCurrency
        self.isMature = isMature
        self.isEndInferred = isEndInferred
        self.isGraceEndInferred = isGraceEndInferred
        self.isLateFailureNotice = isLateFailureNotice
        self.staleNotices = staleNotices
    }
}
