import Analysis
import AppStoreNotifications
import Foundation
import NotificationTypes

/// One subscriber's history from the first purchase to the export's end, as the notifications the App Store would
/// send: to the purchaser, and a `FAMILY_SHARED` copy of each to every family member.
///
/// A state machine over billing periods. Each period ends in a renewal (`DID_RENEW`), a voluntary exit
/// (`DID_CHANGE_RENEWAL_STATUS`/`AUTO_RENEW_DISABLED`, then `EXPIRED`/`VOLUNTARY`), a refund (`REFUND`), the
/// product leaving the store (`EXPIRED`/`PRODUCT_NOT_FOR_SALE`) or a failed charge (`DID_FAIL_TO_RENEW`), which
/// opens a billing-retry episode. The episode's course is drawn day by day when it opens (``RetryModel``):
/// recovery (`DID_RENEW`/`BILLING_RECOVERY`), a cancel during retry, a refund or a withdrawn product (`other`), a
/// new paid purchase (`DID_CHANGE_RENEWAL_PREF`/`UPGRADE` or `SUBSCRIBED`/`RESUBSCRIBE`: recovered by new
/// purchase), or, when none of them happened by day 60, expiry (`EXPIRED`/`BILLING_RETRY`); `GRACE_PERIOD_EXPIRED`
/// comes first when the grace period ends before the outcome. A lapsed subscriber may subscribe again
/// (`SUBSCRIBED`/`RESUBSCRIBE`). Apple's quirks change what is notified, never what happens: a failure notice
/// signed after its recovery, a late copy of it, a grace period never dated, an expiry never notified.
///
/// Every notification records its ``SimulatedNotification/EpisodeRole``, with the episode's number: the ground
/// truth comes from those decisions, not from reading the notifications back. Signed dates increase strictly
/// within each subscription (at least a second apart).
struct SubscriptionTimeline {
    /// What is drawn once per subscriber.
    struct Profile: Hashable, Sendable {
        var index: Int
        var environment: Environment
        var product: Catalog.Product
        var storefront: Catalog.Storefront
        /// Days of billing grace period the app's setting gives (before the cap of weekly products and the
        /// renewal type); nil: none.
        var graceDays: Int?
        var startsWithTrial: Bool
        /// Family members sharing the subscription (0…3).
        var familyMembers: Int
        /// The first purchase.
        var joined: Int64
        var appAccountToken: String?
        /// Bills an annual product monthly under a 12-month commitment (``SimulationOptions/commitmentRate``).
        var isCommitment = false

        /// Draws a profile from the subscriber's generator.
        init(index: Int, options: SimulationOptions, generator: inout SplitMix64) {
            self.index = index
            environment = generator.chance(options.sandboxRate) ? .sandbox : .production
            storefront = Catalog.storefronts[generator.index(weightedBy: Catalog.storefronts.map(\.weight))]
            product = Catalog.products[generator.index(weightedBy: Catalog.products.map(\.weight))]
            graceDays = options.grace.days(drawingFrom: &generator)
            startsWithTrial = generator.chance(options.trialRate)
            familyMembers =
                generator.chance(options.familyRate)
                ? 1 + Int(generator.next() % UInt64(Identifiers.maximumFamilyMembers)) : 0
            joined = generator.int64(in: options.start...(options.end - 1))
            appAccountToken = generator.chance(0.5) ? Identifiers.uuid(&generator) : nil
            // Drawn from a stream of its own, so that the other subscribers' histories stay as they are at any rate.
            if options.commitmentRate > 0, product.period == .year {
                var plans = SplitMix64(seed: options.seed, index: UInt64(index), stream: 9)
                isCommitment = plans.chance(options.commitmentRate)
                // A commitment is bought without the introductory trial.
                if isCommitment { startsWithTrial = false }
            }
        }
    }

    /// What the renewal info says besides the product and dates.
    private struct RenewalState {
        var autoRenew = true
        var expirationIntent: ExpirationIntent?
        var isInBillingRetry: Bool?
        var gracePeriodExpires: Int64?
    }

    /// One receiver of the notifications: the purchaser (member 0) or a family member.
    private struct Account {
        var number: Int64
        var ownership: InAppOwnershipType
        /// Added to the purchaser's signed dates, so each copy is signed a little later.
        var delay: Int64
        var uuids: SplitMix64
        var notifications: [SimulatedNotification] = []
    }

    /// Share of periods that end with the product withdrawn from sale.
    private static let productNotForSaleRate = 0.002
    /// Share of voluntary cancels (of paid periods) that the customer takes back before the period ends.
    private static let reenableRate = 0.15
    /// Share of cancels during billing retry followed by `EXPIRED`/`VOLUNTARY`.
    private static let expiredAfterCancelRate = 0.5
    private static let minute: Int64 = 60_000
    private static let hour = Milliseconds.hour
    private static let day = Milliseconds.day
    private static let retryPeriod = 60 * Milliseconds.day
    /// How long after an event its notification is signed (ms).
    private static let signingDelays: ClosedRange<Int64> = 2_000...90_000

    let profile: Profile
    private let options: SimulationOptions
    private let model: RetryModel
    private let identifiers: Identifiers
    private let end: Int64
    private var life: SplitMix64
    /// Apple's quirks (late and stale failure notices, undated grace periods, missing expiries).
    private var quirks: SplitMix64
    /// The moments between an event and the signing of its notification.
    private var signing: SplitMix64
    /// The app's launches and what it did with the billing-issue sheet (``SheetPlan``).
    private var launches: SplitMix64
    /// The lines the app logged of the billing-issue sheet, by time (with ``SimulationOptions/sheets``).
    private(set) var sheetEvents: [PlantedSheetEvent] = []
    private var accounts: [Account]

    private var isFinished = false
    /// The purchaser's latest signed date.
    private var lastSigned = Int64.min
    /// The time of the latest event.
    private var clock: Int64
    /// The purchase number of the latest transaction (0: the original purchase).
    private var sequence = 0
    /// The latest transaction, without `signedDate` or per-account fields.
    private var transaction = JWSTransactionDecodedPayload()
    private var recentStart: Int64
    private var hasBeenInRetry = false
    /// Billing-retry episodes so far.
    private var episodes = 0
    /// The product subscribed to: the profile's, until an upgrade.
    private var product: Catalog.Product
    /// The purchase number of the current subscription's first transaction: 0 until the customer comes back on a
    /// new subscription, or the subscription migrates.
    private var originalSequence = 0
    /// The first purchase of the current subscription.
    private var subscriptionStart: Int64
    /// The original transaction id the current subscription continues after a migration.
    private var previousSequence: Int?
    /// The customer's returns after an involuntary expiry (with ``SimulationOptions/returnRate``).
    private(set) var returns: [PlantedReturn] = []
    /// Under a commitment: the installment the latest transaction paid (1…12), and when the commitment ends.
    private var installment = 1
    private var commitmentExpires: Int64 = 0
    /// The installments of a 12-month commitment.
    private static let commitmentInstallments = 12

    /// Draws the subscriber's profile; ``run()`` then makes the history.
    init(index: Int, options: SimulationOptions, model: RetryModel, identifiers: Identifiers) {
        var life = SplitMix64(seed: options.seed, index: UInt64(index), stream: 1)
        let profile = Profile(index: index, options: options, generator: &life)
        self.profile = profile
        self.options = options
        self.model = model
        self.identifiers = identifiers
        self.end = options.end
        self.life = life
        self.quirks = SplitMix64(seed: options.seed, index: UInt64(index), stream: 7)
        self.signing = SplitMix64(seed: options.seed, index: UInt64(index), stream: 8)
        self.launches = SplitMix64(seed: options.seed, index: UInt64(index), stream: 10)
        self.product = profile.product
        self.clock = profile.joined
        self.recentStart = profile.joined
        self.subscriptionStart = profile.joined
        self.accounts = (0...profile.familyMembers).map { member in
            let number = Identifiers.account(subscriber: index, member: member)
            return Account(
                number: number,
                ownership: member == 0 ? .purchased : .familyShared,
                delay: Int64(member) * 1500,
                uuids: SplitMix64(seed: options.identitySeed, index: UInt64(number), stream: 2)
            )
        }
    }

    /// Simulates the history and returns each account's notifications (purchaser first), in signed order.
    mutating func run() -> [[SimulatedNotification]] {
        let joined = profile.joined
        let trial = profile.startsWithTrial
        if profile.isCommitment { commitmentExpires = UTCCalendar.adding(months: 12, to: joined) }
        transaction = makeTransaction(
            purchase: joined,
            expires: trial
                ? joined + Int64(product.trialDays) * Self.day
                : billingPeriod.end(startingAt: joined),
            reason: .purchase,
            isTrial: trial
        )
        emit(.subscribed, .initialBuy, at: joined, status: .active, renewal: RenewalState())
        while !isFinished {
            runPeriod()
        }
        return accounts.map(\.notifications)
    }

    // MARK: Periods and episodes

    private mutating func runPeriod() {
        let periodStart = transaction.purchaseDate ?? clock
        let periodEnd = transaction.expiresDate ?? clock
        let isTrial = transaction.offerDiscountType == .known(.freeTrial)

        if !isTrial, life.chance(options.refundRate) {
            let latest = max(Self.hour, (periodEnd - periodStart) * 4 / 5)
            refund(at: draw(from: periodStart + Self.hour, to: periodStart + latest), role: .none)
            lapse()
            return
        }

        let leaves =
            isTrial
            ? 1 - options.trialConversionRate
            : 1 - pow(1 - options.voluntaryChurnRate, product.period.months)
        // A commitment's installments are all billed: its customer leaves at the end of the last one.
        if life.chance(leaves), !profile.isCommitment || installment == Self.commitmentInstallments {
            let time = draw(from: periodStart + Self.hour, to: periodEnd - 3 * Self.hour)
            emit(
                .didChangeRenewalStatus, .autoRenewDisabled, at: time, status: .active,
                renewal: RenewalState(autoRenew: false, isInBillingRetry: retryFlag)
            )
            if !isTrial, life.chance(Self.reenableRate) {
                emit(
                    .didChangeRenewalStatus, .autoRenewEnabled,
                    at: draw(from: time + Self.hour, to: periodEnd - 2 * Self.hour), status: .active,
                    renewal: RenewalState(isInBillingRetry: retryFlag)
                )
            } else {
                emit(
                    .expired, .voluntary, at: periodEnd, status: .expired,
                    renewal: RenewalState(
                        autoRenew: false, expirationIntent: .customerCancelled, isInBillingRetry: retryFlag
                    )
                )
                lapse()
                return
            }
        }

        if life.chance(Self.productNotForSaleRate) {
            emit(
                .expired, .productNotForSale, at: periodEnd, status: .expired,
                renewal: RenewalState(
                    autoRenew: false, expirationIntent: .productNotAvailable, isInBillingRetry: retryFlag
                )
            )
            isFinished = true
            return
        }

        let rates = rates(afterTrial: isTrial)
        if life.chance(min(1, options.failureRate * rates.failure)) {
            runEpisode(periodEnd: periodEnd, afterTrial: isTrial, recoveryMultiplier: rates.recovery)
        } else {
            let purchase = periodEnd - life.int64(in: 0...(30 * Self.minute))
            startPaidPeriod(purchase: purchase, expires: billingPeriod.end(startingAt: periodEnd), reason: .renewal)
            emit(.didRenew, nil, at: purchase, status: .active, renewal: RenewalState(isInBillingRetry: retryFlag))
            if options.migrationRate > 0, life.chance(options.migrationRate) { migrate(at: purchase + Self.hour) }
        }
    }

    /// The subscription migrates at `time`: a `MIGRATE` notification whose transaction, the current period's under
    /// a new transaction id, starts a new subscription that names the old one in `previousOriginalTransactionId`.
    /// Nothing is charged, and the later notifications belong to the new subscription.
    private mutating func migrate(at time: Int64) {
        previousSequence = originalSequence
        sequence += 1
        originalSequence = sequence
        subscriptionStart = time
        transaction.originalPurchaseDate = time
        emit(.migrate, nil, at: time, status: .active, renewal: RenewalState(isInBillingRetry: retryFlag))
    }

    /// How an episode leaves billing retry, as drawn day by day.
    private enum Exit {
        case recovered, cancelled, other, newPurchase, expired
    }

    /// Draws an episode's course day by day (``RetryModel/recoveryChance(day:multiplier:graceEndDay:isShownDay:)``
    /// and the other ways out): the way out and its time, uniform within the day
    /// (and at least two minutes before the day's end, so its notification is signed the same day); `expired` at
    /// t0 + W days when nothing else happened (60, or 90 under a commitment). Under a commitment a cancel does not
    /// end retry: its time is returned as `cancelled` and the draws go on. On a day the app showed the sheet
    /// (`sheets`), a recovery comes after the sheet: the same draw, placed in what is left of the day.
    private mutating func drawExit(
        start: Int64,
        recoveryMultiplier: Double,
        graceEndDay: Int?,
        sheets: SheetPlan.Episode?
    ) -> (exit: Exit, time: Int64, cancelled: Int64?) {
        var cancelled: Int64?
        for day in 1...retryPlan.retryWindowDays {
            guard let index = RetryModel.index(of: day) else { break }
            let unit = life.nextUnit()
            let isShownDay = sheets?.isShown(on: day) ?? false
            let recovery = model.recoveryChance(
                day: day, multiplier: recoveryMultiplier, graceEndDay: graceEndDay, isShownDay: isShownDay)
            let cancel = recovery + model.cancel[index]
            let other = cancel + model.other[index]
            let newPurchase = other + model.newPurchase[index]
            let exit: Exit
            if unit < recovery {
                exit = .recovered
            } else if unit < cancel {
                exit = .cancelled
            } else if unit < other {
                exit = .other
            } else if unit < newPurchase {
                exit = .newPurchase
            } else {
                continue
            }
            let dayStart = start + Int64(day - 1) * Self.day
            let span = Self.day - 2 * Self.minute
            var time = dayStart + life.int64(in: 0...span)
            if exit == .recovered, isShownDay, let launch = sheets?.launch(on: day) {
                let left = dayStart + span - launch
                time = launch + (time - dayStart) * left / span
            }
            if exit == .cancelled, profile.isCommitment {
                cancelled = cancelled ?? time
                continue
            }
            return (exit, time, cancelled)
        }
        return (.expired, start + retryPlan.retryWindow, cancelled)
    }

    /// Logs the episode's launches before `end` (the episode's end, or the history's) as the app's message log
    /// has them, naming the subscription by its `appAccountToken` alone for ``SheetPlan/tokenShare`` of those with
    /// one, by its id otherwise.
    /// - Returns: the retry days on which the sheet was shown.
    private mutating func logSheets(_ sheets: SheetPlan.Episode, subscription: String, until end: Int64) -> [Int] {
        let byToken = profile.appAccountToken != nil && launches.chance(SheetPlan.tokenShare)
        var shown: [Int] = []
        for (index, launch) in sheets.days.enumerated() {
            guard let launch, launch.at < end, launch.at < self.end else { continue }
            if launch.action == .shown { shown.append(index + 1) }
            sheetEvents.append(
                PlantedSheetEvent(
                    originalTransactionId: byToken ? nil : subscription,
                    appAccountToken: byToken ? profile.appAccountToken : nil, at: launch.at, action: launch.action,
                    arm: sheets.arm))
        }
        return shown
    }

    /// The billing plan of the subscriber's episodes.
    private var retryPlan: Episode.BillingPlan { profile.isCommitment ? .commitment : .standard }

    /// One billing period: the product's, or a month under a commitment.
    private var billingPeriod: Catalog.Period { profile.isCommitment ? .month : product.period }

    /// How the next charge fails and recovers compared with the base rates: the product's, the storefront's, and
    /// the first charge after a trial's multipliers; all 1 with ``SimulationOptions/uniformRates``.
    private func rates(afterTrial: Bool) -> RateMultipliers {
        guard !options.uniformRates else { return .one }
        let rates = product.rates.combined(with: profile.storefront.rates)
        return afterTrial ? rates.combined(with: Catalog.firstChargeAfterTrial) : rates
    }

    /// The grace period of a charge that failed at `start`, in days (nil: none): the app's setting then (changed
    /// from ``SimulationOptions/graceChange``'s date on), none for the first charge after a trial when only
    /// paid-to-paid renewals have grace, at most 6 days for a weekly product.
    private func graceDays(afterTrial: Bool, at start: Int64) -> Int? {
        var setting = profile.graceDays
        if let change = options.graceChange, start >= change.date { setting = change.days }
        // Billing Grace Period does not apply to commitments.
        guard !profile.isCommitment, let days = setting, !(afterTrial && options.graceRenewals == .paidToPaid)
        else { return nil }
        return product.period == .week ? min(days, GraceSetting.weeklyMaximumDays) : days
    }

    /// Apple's quirks in one episode's notifications, drawn from their own generator so that they never change
    /// what happens to the subscription, only what is notified (see ``SimulationOptions``).
    private struct Quirks {
        /// The failure notice is signed `lateDelay` after the recovery that resolved it.
        var isNoticeLate = false
        /// A copy of the failure notice comes `lateDelay` after the recovery.
        var hasStaleCopy = false
        /// No notification of the episode carries `gracePeriodExpiresDate`.
        var isGraceUndated = false
        /// Retry ends unpaid without `EXPIRED`/`BILLING_RETRY`.
        var isExpiryUnnotified = false
        var lateDelay: Int64 = 0
        /// The moment before a late notice is signed.
        var signingDelay: Int64 = 0
    }

    /// Draws the quirks of an episode that leaves retry by `exit` at `time`: always the same draws, so that the
    /// rates change only the quirks they set.
    private mutating func drawQuirks(exit: Exit, time: Int64, graceEnd: Int64?) -> Quirks {
        let late = quirks.nextUnit()
        let stale = quirks.nextUnit()
        let undated = quirks.nextUnit()
        let missing = quirks.nextUnit()
        var drawn = Quirks(
            lateDelay: quirks.int64(in: Self.hour...(12 * Self.hour)),
            signingDelay: quirks.int64(in: Self.signingDelays)
        )
        // A late notice needs a recovery by retry with nothing notified before it (no end of grace), and room
        // before the end of the history for the notice.
        let isRecoveredByRetry = exit == .recovered && time + drawn.lateDelay + 10 * Self.minute < end
        if isRecoveredByRetry, graceEnd.map({ time <= $0 }) ?? true {
            drawn.isNoticeLate = late < options.lateFailureNoticeRate
        }
        drawn.hasStaleCopy = isRecoveredByRetry && !drawn.isNoticeLate && stale < options.staleFailureNoticeRate
        drawn.isGraceUndated = graceEnd != nil && undated < options.undatedGraceRate
        drawn.isExpiryUnnotified = exit == .expired && missing < options.missingExpiryRate
        return drawn
    }

    /// A failed renewal at `periodEnd` (t0) and what follows it; `recoveryMultiplier` multiplies each day's chance
    /// of recovery.
    private mutating func runEpisode(periodEnd start: Int64, afterTrial: Bool, recoveryMultiplier: Double) {
        episodes += 1
        let episode = episodes
        let graceEnd = graceDays(afterTrial: afterTrial, at: start).map { start + Int64($0) * Self.day }
        let failed = (transaction: transaction, sequence: sequence)
        let sheets = options.sheets.map { plan in
            plan.draw(start: start, days: retryPlan.retryWindowDays, generator: &launches)
        }
        let course = drawExit(
            start: start,
            recoveryMultiplier: recoveryMultiplier,
            graceEndDay: graceEnd.map { RetryModel.day(holding: $0 - start) },
            sheets: sheets
        )
        // Whatever ends the episode happens at least a minute after its failure notice would be signed (at most 90
        // seconds after t0, or a second after the previous notification).
        let time = max(course.time, start + 3 * Self.minute, lastSigned + 2 * Self.minute)
        let notices = drawQuirks(exit: course.exit, time: time, graceEnd: graceEnd)
        // What the renewal infos of the episode say about the grace period.
        let datedGraceEnd = notices.isGraceUndated ? nil : graceEnd
        var opening = SimulatedNotification.Opening(
            episode: episode, start: start, graceEnd: graceEnd, isGraceUndated: notices.isGraceUndated,
            isLate: notices.isNoticeLate, isExpiryUnnotified: notices.isExpiryUnnotified
        )
        if let sheets {
            opening.sheetArm = sheets.arm
            // The purchaser's subscription, as its notifications name it.
            let subscription = identifiers.transactionId(account: accounts[0].number, sequence: originalSequence)
            opening.shownDays = logSheets(sheets, subscription: subscription, until: time)
        }
        // The failure notice (on time, late, or a late copy), about the failed period's transaction.
        func sendFailureNotice(at time: Int64, role: SimulatedNotification.EpisodeRole, isLate: Bool = false) -> Bool {
            emit(
                .didFailToRenew, graceEnd == nil ? nil : .gracePeriod, at: time,
                status: graceEnd == nil ? .billingRetry : .billingGracePeriod,
                renewal: RenewalState(
                    expirationIntent: .billingError,
                    // Seen in practice: a grace period after a free trial, with isInBillingRetryPeriod false.
                    isInBillingRetry: !(afterTrial && graceEnd != nil),
                    gracePeriodExpires: datedGraceEnd
                ),
                purchase: failed,
                role: role,
                isEvent: !isLate,
                signingDelay: isLate ? notices.signingDelay : nil
            )
        }

        if notices.isNoticeLate {
            hasBeenInRetry = true
            // The moment the on-time notice would have taken to be signed, drawn all the same.
            _ = signing.int64(in: Self.signingDelays)
            recover(at: time, start: start, graceEnd: graceEnd, datedGraceEnd: datedGraceEnd, episode: episode)
            _ = sendFailureNotice(at: time + notices.lateDelay, role: .opens(opening), isLate: true)
            return
        }
        guard sendFailureNotice(at: start, role: .opens(opening)) else { return }
        hasBeenInRetry = true
        let inRetry = RenewalState(
            expirationIntent: .billingError, isInBillingRetry: true, gracePeriodExpires: datedGraceEnd
        )
        if let cancelled = course.cancelled, cancelled < time {
            // Under a commitment: the customer turns off the next commitment; retry goes on for the installment.
            var off = inRetry
            off.autoRenew = false
            emit(.didChangeRenewalStatus, .autoRenewDisabled, at: cancelled, status: .billingRetry, renewal: off)
        }

        switch course.exit {
        case .recovered:
            expireGrace(graceEnd, dated: datedGraceEnd, before: time)
            recover(at: time, start: start, graceEnd: graceEnd, datedGraceEnd: datedGraceEnd, episode: episode)
            if notices.hasStaleCopy {
                _ = sendFailureNotice(at: time + notices.lateDelay, role: .staleCopy(episode: episode), isLate: true)
            }
        case .cancelled:
            expireGrace(graceEnd, dated: datedGraceEnd, before: time)
            let inGrace = graceEnd.map { time < $0 } ?? false
            var cancelled = inRetry
            cancelled.autoRenew = false
            emit(
                .didChangeRenewalStatus, .autoRenewDisabled, at: time,
                status: inGrace ? .billingGracePeriod : .billingRetry, renewal: cancelled,
                role: .closes(episode: episode, outcome: .cancelled)
            )
            if life.chance(Self.expiredAfterCancelRate) {
                emit(
                    .expired, .voluntary, at: time + life.int64(in: Self.minute...(2 * Self.hour)), status: .expired,
                    renewal: RenewalState(
                        autoRenew: false, expirationIntent: .customerCancelled, isInBillingRetry: false)
                )
            }
            lapse()
        case .other:
            expireGrace(graceEnd, dated: datedGraceEnd, before: time)
            if life.chance(0.5) {
                refund(at: time, role: .closes(episode: episode, outcome: .other))
                lapse()
            } else {
                emit(
                    .expired, .productNotForSale, at: time, status: .expired,
                    renewal: RenewalState(
                        autoRenew: false, expirationIntent: .productNotAvailable, isInBillingRetry: false
                    ),
                    role: .closes(episode: episode, outcome: .other)
                )
                isFinished = true
            }
        case .newPurchase:
            expireGrace(graceEnd, dated: datedGraceEnd, before: time)
            buyAgain(at: time, closing: episode)
        case .expired:
            expireGrace(graceEnd, dated: datedGraceEnd, before: course.time)
            if notices.isExpiryUnnotified {
                // The App Store stops retrying, but says nothing. The moment the notification would have taken to
                // be signed is drawn all the same, so the later ones are signed as they would have been.
                clock = max(clock, course.time)
                _ = signing.int64(in: Self.signingDelays)
            } else {
                emit(
                    .expired, .billingRetry, at: course.time, status: .expired,
                    renewal: RenewalState(expirationIntent: .billingError, isInBillingRetry: false),
                    role: .closes(episode: episode, outcome: .expired)
                )
            }
            if options.returnRate != nil {
                // The episode ends when its EXPIRED is signed, or at day 60 by inference when none is sent.
                comeBack(afterExpiryAt: notices.isExpiryUnnotified ? start + retryPlan.retryWindow : lastSigned)
            } else {
                lapse()
            }
        }
    }

    /// Billing retry collects the failed renewal at `time`: `DID_RENEW`/`BILLING_RECOVERY`. Within grace the renewal
    /// dates do not move; otherwise a new period starts at `time`.
    private mutating func recover(at time: Int64, start: Int64, graceEnd: Int64?, datedGraceEnd: Int64?, episode: Int) {
        let savedInGrace = graceEnd.map { time <= $0 } ?? false
        var expires = billingPeriod.end(startingAt: savedInGrace ? start : time)
        while expires < time + Self.day {
            expires = billingPeriod.end(startingAt: expires)
        }
        // A recovered installment moves the commitment's end by the time spent in retry.
        if profile.isCommitment { commitmentExpires += time - start }
        startPaidPeriod(purchase: time, expires: expires, reason: .renewal)
        emit(
            .didRenew, .billingRecovery, at: time, status: .active,
            renewal: RenewalState(isInBillingRetry: false, gracePeriodExpires: datedGraceEnd),
            role: .closes(episode: episode, outcome: .recovered, recoveredBy: .retry)
        )
    }

    /// A new paid purchase during billing retry, which ends the episode: an upgrade to the next product of the
    /// group (`DID_CHANGE_RENEWAL_PREF`/`UPGRADE`) or, for the last product and in half the cases, the same product
    /// bought again (`SUBSCRIBED`/`RESUBSCRIBE`). A new period starts at `time`.
    private mutating func buyAgain(at time: Int64, closing episode: Int) {
        let position = Catalog.products.firstIndex(of: product) ?? Catalog.products.count - 1
        let upgrades = position + 1 < Catalog.products.count && life.chance(0.5)
        if upgrades { product = Catalog.products[position + 1] }
        startPaidPeriod(purchase: time, expires: billingPeriod.end(startingAt: time), reason: .purchase)
        emit(
            upgrades ? .didChangeRenewalPref : .subscribed, upgrades ? .upgrade : .resubscribe, at: time,
            status: .active, renewal: RenewalState(isInBillingRetry: false),
            role: .closes(episode: episode, outcome: .recovered, recoveredBy: .newPurchase)
        )
    }

    /// `GRACE_PERIOD_EXPIRED` when the grace period ends before `time`; the episode stays open. Its renewal info
    /// carries `dated` (nil when Apple did not date the grace period).
    private mutating func expireGrace(_ graceEnd: Int64?, dated: Int64?, before time: Int64) {
        guard let graceEnd, graceEnd < time else { return }
        emit(
            .gracePeriodExpired, nil, at: graceEnd, status: .billingRetry,
            renewal: RenewalState(expirationIntent: .billingError, isInBillingRetry: true, gracePeriodExpires: dated)
        )
    }

    /// `REFUND` of the latest transaction (`REVOKE` for family members).
    private mutating func refund(at time: Int64, role: SimulatedNotification.EpisodeRole) {
        transaction.revocationDate = time
        transaction.revocationReason = .known(life.chance(0.3) ? .refundedDueToIssue : .refundedForOtherReason)
        transaction.revocationType = .known(.refundFull)
        emit(
            .refund, nil, at: time, status: .revoked,
            renewal: RenewalState(autoRenew: false, isInBillingRetry: retryFlag), role: role
        )
    }

    /// After the subscription ended: perhaps a new purchase after 3 to 90 days, else the end of the history.
    private mutating func lapse() {
        guard !isFinished, life.chance(options.resubscribeRate) else {
            isFinished = true
            return
        }
        let time = clock + life.int64(in: (3 * Self.day)...(90 * Self.day))
        // recentSubscriptionStartDate ignores lapses shorter than 60 days.
        if time - (transaction.expiresDate ?? clock) >= Self.retryPeriod { recentStart = time }
        startPaidPeriod(purchase: time, expires: billingPeriod.end(startingAt: time), reason: .purchase)
        emit(.subscribed, .resubscribe, at: time, status: .active, renewal: RenewalState(isInBillingRetry: retryFlag))
    }

    /// After an involuntary expiry at `expiry`: at ``SimulationOptions/returnRate``, the customer comes back 1 to
    /// 179 days later, on the same subscription or (half the time) on a new one of the same account; else the
    /// history ends.
    private mutating func comeBack(afterExpiryAt expiry: Int64) {
        guard !isFinished, life.chance(options.returnRate ?? 0) else {
            isFinished = true
            return
        }
        let time = max(clock, expiry) + life.int64(in: Self.day...(179 * Self.day))
        let isNewSubscription = life.chance(0.5)
        let expired = identifiers.transactionId(account: accounts[0].number, sequence: originalSequence)
        let subscription = identifiers.transactionId(
            account: accounts[0].number, sequence: isNewSubscription ? sequence + 1 : originalSequence)
        if time - (transaction.expiresDate ?? clock) >= Self.retryPeriod || isNewSubscription { recentStart = time }
        if isNewSubscription {
            originalSequence = sequence + 1
            subscriptionStart = time
            previousSequence = nil
            hasBeenInRetry = false
        }
        startPaidPeriod(purchase: time, expires: billingPeriod.end(startingAt: time), reason: .purchase)
        if emit(
            .subscribed, isNewSubscription ? .initialBuy : .resubscribe, at: time, status: .active,
            renewal: RenewalState(isInBillingRetry: isNewSubscription ? nil : retryFlag))
        {
            returns.append(
                PlantedReturn(
                    expiredSubscription: expired, expiredAt: expiry, subscription: subscription, returnedAt: time,
                    isNewSubscription: isNewSubscription))
        }
    }

    /// What one billing period charges: the product's price, or under a commitment a twelfth of the annual price
    /// (rounded to whole cents, milliunits of 10).
    private var billedPrice: Int64 {
        let price = product.price(in: profile.storefront.currency)
        guard profile.isCommitment else { return price }
        return (price / Int64(Self.commitmentInstallments) + 5) / 10 * 10
    }

    /// A time drawn uniformly from `lower...upper`, or `lower` when the interval is empty.
    private mutating func draw(from lower: Int64, to upper: Int64) -> Int64 {
        upper <= lower ? lower : life.int64(in: lower...upper)
    }

    /// `isInBillingRetryPeriod` outside retry: omitted until the first episode, false after it.
    private var retryFlag: Bool? { hasBeenInRetry ? false : nil }

    // MARK: Notifications

    /// A paid transaction after the first purchase (a renewal, a recovery, a purchase again): it gets the next
    /// purchase number and becomes the latest transaction.
    private mutating func startPaidPeriod(purchase: Int64, expires: Int64, reason: TransactionReason) {
        if profile.isCommitment {
            // A purchase starts a commitment; a renewal pays the next installment, or starts the next commitment.
            if reason == .purchase || installment == Self.commitmentInstallments {
                installment = 1
                commitmentExpires = UTCCalendar.adding(months: 12, to: purchase)
            } else {
                installment += 1
            }
        }
        sequence += 1
        transaction = makeTransaction(purchase: purchase, expires: expires, reason: reason, isTrial: false)
    }

    /// The purchaser's fields of a new transaction; ``emit`` fills in the account and the signed date.
    private func makeTransaction(
        purchase: Int64,
        expires: Int64,
        reason: TransactionReason,
        isTrial: Bool
    ) -> JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.bundleId = options.bundleID
        transaction.productId = product.productId
        transaction.subscriptionGroupIdentifier = Catalog.subscriptionGroupIdentifier
        transaction.purchaseDate = purchase
        transaction.originalPurchaseDate = subscriptionStart
        transaction.expiresDate = expires
        transaction.quantity = 1
        transaction.type = .known(.autoRenewableSubscription)
        transaction.environment = .known(profile.environment)
        transaction.storefront = profile.storefront.code
        transaction.storefrontId = profile.storefront.id
        transaction.transactionReason = .known(reason)
        transaction.currency = profile.storefront.currency
        transaction.price = isTrial ? 0 : billedPrice
        if profile.isCommitment {
            transaction.billingPlanType = .known(.monthly)
            var commitment = TransactionCommitmentInfo()
            commitment.billingPeriodNumber = Int32(installment)
            commitment.totalBillingPeriods = Int32(Self.commitmentInstallments)
            commitment.commitmentExpiresDate = commitmentExpires
            commitment.commitmentPrice = billedPrice * Int64(Self.commitmentInstallments)
            transaction.commitmentInfo = commitment
        }
        if isTrial {
            transaction.offerType = .known(.introductoryOffer)
            transaction.offerDiscountType = .known(.freeTrial)
            transaction.offerPeriod = product.trialOfferPeriod
        }
        return transaction
    }

    /// Sends a notification about an event at `time` to every account, each signed a moment later.
    /// - Parameters:
    ///   - purchase: the transaction the notification is about, when not the latest one (a late failure notice).
    ///   - isEvent: false for a notice that only reports an earlier event late: the subscription's clock stays.
    ///   - signingDelay: the moment between `time` and signing, when drawn elsewhere (late notices draw theirs with
    ///     the quirks, so that they leave the other notifications' signed dates as they were).
    /// - Returns: false, and the history ends, when the purchaser's copy would be signed at or after the export's
    ///   end.
    @discardableResult
    private mutating func emit(
        _ type: NotificationTypeV2,
        _ subtype: Subtype?,
        at time: Int64,
        status: Status,
        renewal: RenewalState,
        purchase: (transaction: JWSTransactionDecodedPayload, sequence: Int)? = nil,
        role: SimulatedNotification.EpisodeRole = .none,
        isEvent: Bool = true,
        signingDelay: Int64? = nil
    ) -> Bool {
        guard !isFinished else { return false }
        let signed = max(time + (signingDelay ?? signing.int64(in: Self.signingDelays)), lastSigned + 1_000)
        guard signed < end else {
            isFinished = true
            return false
        }
        lastSigned = signed
        if isEvent { clock = max(clock, time) }
        for index in accounts.indices {
            let account = accounts[index]
            let accountSigned = signed + account.delay
            guard accountSigned < end else { continue }
            let isFamily = account.ownership == .familyShared
            var notification = SimulatedNotification(
                notificationType: isFamily && type == .refund ? .revoke : type,
                subtype: subtype,
                notificationUUID: Identifiers.uuid(&accounts[index].uuids),
                signedDate: accountSigned,
                environment: profile.environment,
                status: status,
                transaction: accountTransaction(account, signedDate: accountSigned, purchase: purchase),
                renewalInfo: renewalInfo(
                    renewal, account: account, signedDate: accountSigned,
                    renewalDate: (purchase?.transaction ?? transaction).expiresDate
                ),
                role: role
            )
            if isFamily, type == .refund { notification.transaction?.revocationType = .known(.familyRevoke) }
            accounts[index].notifications.append(notification)
        }
        return true
    }

    /// The account's copy of the latest transaction, or of `purchase`.
    private func accountTransaction(
        _ account: Account,
        signedDate: Int64,
        purchase: (transaction: JWSTransactionDecodedPayload, sequence: Int)?
    ) -> JWSTransactionDecodedPayload {
        var copy = purchase?.transaction ?? transaction
        let sequence = purchase?.sequence ?? sequence
        copy.transactionId = identifiers.transactionId(account: account.number, sequence: sequence)
        copy.originalTransactionId = identifiers.transactionId(account: account.number, sequence: originalSequence)
        copy.previousOriginalTransactionId = previousSequence.map {
            identifiers.transactionId(account: account.number, sequence: $0)
        }
        copy.webOrderLineItemId = identifiers.webOrderLineItemId(account: account.number, sequence: sequence)
        copy.appTransactionId = identifiers.appTransactionId(account: account.number)
        copy.inAppOwnershipType = .known(account.ownership)
        copy.appAccountToken = account.ownership == .purchased ? profile.appAccountToken : nil
        copy.signedDate = signedDate
        return copy
    }

    private func renewalInfo(
        _ state: RenewalState,
        account: Account,
        signedDate: Int64,
        renewalDate: Int64?
    ) -> JWSRenewalInfoDecodedPayload {
        var info = JWSRenewalInfoDecodedPayload()
        info.originalTransactionId = identifiers.transactionId(account: account.number, sequence: originalSequence)
        info.productId = product.productId
        info.autoRenewProductId = product.productId
        info.autoRenewStatus = .known(state.autoRenew ? .on : .off)
        if state.autoRenew {
            info.renewalPrice = billedPrice
            info.currency = profile.storefront.currency
        }
        if profile.isCommitment { info.renewalBillingPlanType = .known(.monthly) }
        info.renewalDate = renewalDate
        info.expirationIntent = state.expirationIntent.map { .known($0) }
        info.isInBillingRetryPeriod = state.isInBillingRetry
        info.gracePeriodExpiresDate = state.gracePeriodExpires
        info.recentSubscriptionStartDate = recentStart
        info.signedDate = signedDate
        info.environment = .known(profile.environment)
        info.appTransactionId = identifiers.appTransactionId(account: account.number)
        info.appAccountToken = account.ownership == .purchased ? profile.appAccountToken : nil
        return info
    }
}
