import Analysis

/// What to simulate: how many subscribers over which months, the app's settings, and how often each thing happens.
///
/// Rates are probabilities between 0 and 1. Changing a noise rate (duplicates, out-of-order lines) never changes the
/// subscribers' histories or the ground truth, and changing a quirk rate (late, stale and undated notices, missing
/// expiries) never changes what happens to a subscription, only what is notified: each draws from its own random
/// stream.
package struct SimulationOptions: Hashable, Sendable {
    /// Subscribers (purchasers) to simulate; family members come on top.
    package var subscribers = 1000
    /// The seed of every random choice, the certificate authority's keys included.
    package var seed: UInt64 = 1
    /// The first day of the simulated history (Unix ms, midnight UTC). Default 2025-01-01.
    package var start: Int64 = 1_735_689_600_000

    /// The start day the identifiers are counted from: ``identitySeed`` is ``seed`` itself for a history starting
    /// that day.
    package static let identityEpoch: Int64 = 1_735_689_600_000

    /// The seed of the identifiers (transaction ids, `appTransactionId`) and of the notification UUIDs: ``seed``
    /// moved by the whole days ``start`` lies from 2025-01-01, so that histories of one seed started on other days
    /// (a "next day" export) share no notification or subscription with each other.
    package var identitySeed: UInt64 {
        let days = (start - Self.identityEpoch).quotientAndRemainder(dividingBy: Milliseconds.day)
        let whole = days.quotient - (days.remainder < 0 ? 1 : 0)
        return seed &+ UInt64(bitPattern: whole) &* 0x9E37_79B9_7F4A_7C15
    }
    /// Calendar months of history; subscribers join uniformly over them, and the export ends after them.
    package var months = 12
    /// The app's billing grace period.
    package var grace = GraceSetting.days(16)
    /// Which renewals the grace period covers.
    package var graceRenewals = GraceRenewals.all
    /// A change of the grace setting during the history; nil for none.
    package var graceChange: GraceSettingChange?
    /// The shape of the daily recovery hazard; ``recoveryRate`` sets its level (see ``RetryModel``).
    package var recoveryHazard = RecoveryHazard.default

    /// Share of renewal charges that fail and open a billing-retry episode, before the product's, the storefront's
    /// and the first charge after a trial's multipliers (``Catalog``).
    package var failureRate = 0.06
    /// The chance that an episode recovers within the 60 days of retry were nothing else to end it first: the
    /// level of the daily recovery hazard. Cancels and other ends compete, so fewer episodes recover in the end.
    package var recoveryRate = 0.5
    /// The chance that the customer turns off auto-renew during the 60 days of retry, were nothing else to end it.
    package var cancelRate = 0.1
    /// The chance that an episode ends otherwise during the 60 days of retry (a refund of the last paid period, or
    /// the product leaving the store), were nothing else to end it.
    package var otherRate = 0.02
    /// The chance that the customer buys again during the 60 days of retry (an upgrade, or the subscription bought
    /// anew), were nothing else to end it: a recovery by new purchase.
    package var newPurchaseRate = 0.02
    /// Multiplies the chance of recovery on the days a billing-issue message is scheduled in bands 2–4 (1: the
    /// messages change nothing).
    package var messageEffect = 1.0
    /// The app's handling of the billing-issue sheet and its log of it (``SheetPlan``); nil: no sheet is modelled and
    /// no log written.
    package var sheets: SheetPlan?
    /// Multiplies the chance of recovery on the day holding the end of the grace period: losing access drives
    /// customers to fix their payment.
    package var graceEndEffect = 3.0
    /// Every product, storefront and charge fails and recovers at the base rates: no ``RateMultipliers``.
    package var uniformRates = false
    /// Share of subscribers, per month, who turn off auto-renew and leave at the end of their period.
    package var voluntaryChurnRate = 0.04
    /// Share of new subscribers who start with the introductory free trial.
    package var trialRate = 0.3
    /// Share of free trials that go on to the first paid charge (the others are cancelled during the trial).
    package var trialConversionRate = 0.6
    /// Share of paid periods refunded (the subscription ends).
    package var refundRate = 0.01
    /// Share of lapsed subscribers who subscribe again (`SUBSCRIBED`/`RESUBSCRIBE`) after 3 to 90 days.
    package var resubscribeRate = 0.1
    /// Share of involuntary expiries (billing retry ending unpaid) whose customer comes back within 180 days, at a
    /// time drawn uniformly from day 1 to day 179 after the expiry: half on the same subscription
    /// (`SUBSCRIBED`/`RESUBSCRIBE`), half on a new subscription of the same Apple Account (`SUBSCRIBED`/`INITIAL_BUY`
    /// with another `originalTransactionId`, the same `appTransactionId`). Nil: such customers resubscribe at
    /// ``resubscribeRate`` like every lapsed subscriber.
    package var returnRate: Double?
    /// Share of ordinary renewals after which the subscription migrates: a `MIGRATE` notification whose transaction
    /// starts a new subscription carrying `previousOriginalTransactionId`, which the later notifications belong to.
    package var migrationRate = 0.0
    /// Share of annual purchasers who choose monthly billing with a 12-month commitment (`billingPlanType` `MONTHLY`):
    /// twelve monthly installments of a twelfth of the annual price, billing retry up to 90 days with no grace period,
    /// and a cancellation during retry that stops only the next commitment (the installments go on being billed).
    package var commitmentRate = 0.0
    /// Share of subscriptions shared with 1 to 3 family members, each with a `FAMILY_SHARED` copy of every
    /// notification under their own `originalTransactionId`.
    package var familyRate = 0.05
    /// Share of subscribers in the Sandbox environment.
    package var sandboxRate = 0.02
    /// Share of episodes recovered by billing retry (before any grace period ended) whose failure notice the App
    /// Store signs 1 to 12 hours after the recovery instead of at the failure.
    package var lateFailureNoticeRate = 0.01
    /// Share of episodes recovered by billing retry followed, 1 to 12 hours after the recovery, by a further copy of
    /// their failure notice (another `notificationUUID`) for the period already paid.
    package var staleFailureNoticeRate = 0.01
    /// Share of grace periods announced (`DID_FAIL_TO_RENEW`/`GRACE_PERIOD`) without `gracePeriodExpiresDate` in any
    /// renewal info of the episode.
    package var undatedGraceRate = 0.02
    /// Share of billing-retry episodes ending unpaid whose `EXPIRED`/`BILLING_RETRY` is never sent.
    package var missingExpiryRate = 0.02
    /// Share of notifications resent: the same line again, one to four lines later.
    package var duplicateRate = 0.02
    /// Share of notifications delivered after the next one of the same subscription.
    package var outOfOrderRate = 0.02
    /// One `TEST` notification per this many subscribers (the first subscriber's block always has one).
    package var testEvery = 1000

    package var bundleID = "com.example.app"
    package var appAppleID: Int64 = 1_234_567_890

    package init() {}

    /// The end of the simulated history (exclusive): ``start`` plus ``months`` calendar months. Nothing is signed
    /// after it, and episodes still open at it are `open` in the ground truth.
    package var end: Int64 {
        UTCCalendar.adding(months: months, to: start)
    }

    /// Checks ranges and combinations.
    /// - Throws: ``SimulationError/invalidOptions(_:)`` naming the option.
    package func validate() throws {
        guard subscribers >= 1 else { throw SimulationError.invalidOptions("subscribers must be at least 1") }
        guard subscribers <= 50_000_000 else {
            throw SimulationError.invalidOptions("subscribers must be at most 50000000")
        }
        guard (1...120).contains(months) else { throw SimulationError.invalidOptions("months must be 1...120") }
        guard testEvery >= 1 else { throw SimulationError.invalidOptions("testEvery must be at least 1") }
        let rates: [(String, Double)] = [
            ("failure rate", failureRate), ("recovery rate", recoveryRate), ("cancel rate", cancelRate),
            ("other rate", otherRate), ("new purchase rate", newPurchaseRate),
            ("voluntary churn rate", voluntaryChurnRate), ("trial rate", trialRate),
            ("trial conversion rate", trialConversionRate), ("refund rate", refundRate),
            ("resubscribe rate", resubscribeRate), ("return rate", returnRate ?? 0), ("migration rate", migrationRate),
            ("commitment rate", commitmentRate),
            ("family rate", familyRate), ("sandbox rate", sandboxRate),
            ("duplicate rate", duplicateRate), ("out-of-order rate", outOfOrderRate),
            ("late failure notice rate", lateFailureNoticeRate), ("stale failure notice rate", staleFailureNoticeRate),
            ("undated grace rate", undatedGraceRate), ("missing expiry rate", missingExpiryRate),
        ]
        for (name, rate) in rates where !(0...1).contains(rate) {
            throw SimulationError.invalidOptions("\(name) must be between 0 and 1, not \(rate)")
        }
        for (name, effect) in [("message effect", messageEffect), ("grace end effect", graceEndEffect)]
        where !(0...100).contains(effect) {
            throw SimulationError.invalidOptions("\(name) must be between 0 and 100, not \(effect)")
        }
        if let sheets {
            for (name, rate) in [("launch rate", sheets.launchRate), ("holdout", sheets.holdout ?? 0)]
            where !(0...1).contains(rate) {
                throw SimulationError.invalidOptions("\(name) must be between 0 and 1, not \(rate)")
            }
            guard (0...100).contains(sheets.sheetEffect) else {
                throw SimulationError.invalidOptions(
                    "sheet effect must be between 0 and 100, not \(sheets.sheetEffect)")
            }
        }
        if let graceChange, graceChange.setting == .mixed {
            throw SimulationError.invalidOptions("a grace change must be to off, 3, 16 or 28 days, not mixed")
        }
        // Civil dates from 1971 to 2099 keep every identifier and certificate date in range.
        guard start >= 365 * Milliseconds.day, end < 4_102_444_800_000 else {
            throw SimulationError.invalidOptions("the history must lie between 1971 and 2099")
        }
    }
}
