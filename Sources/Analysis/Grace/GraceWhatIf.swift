/// The figures of `grace_whatif.csv` (METRICS.md v2.2, "What another grace setting would have kept or given away"):
/// per app and each setting App Store Connect offers it, what the grace period would have kept as paid service and
/// given away as free access over the app's mature standard episodes, per product and over all of them.
///
/// Billing Grace Period is a setting of the app: off, or a duration of 3, 16 or 28 days with a renewal type,
/// `ALL_RENEWALS` or `PAID_TO_PAID_ONLY` (the App Store Connect API's `subscriptionGracePeriods`). Each product gets
/// the duration, a weekly product (its period is at most 7 days) 3 days under the 3-day setting and 6 under 16 or
/// 28; under `PAID_TO_PAID_ONLY` the first charge after a free trial gets none (``Setting/effectiveDays(isWeekly:isFreeTrialRenewal:)``).
///
/// Every recovery is assumed to come when it came, whatever the setting. A mature episode recovered by retry
/// (`recovered_by` = `retry`) within its effective length L × 24 h is *recovered in grace*: its days since t0 were
/// paid service (none when L = 0). Every other mature episode had access for min(duration, L × 24 h) without paying
/// for it. Money values each episode's days at its price at stake ÷ its product's period in days, where one
/// currency allows. Commitment episodes, which no grace setting applies to, are left out.
///
/// Rows: per app (bundle id, UTF-8 order, a missing one as the empty id first) that has a mature standard episode,
/// each setting in ``Setting/all`` order, its products with a mature episode (UTF-8 order) and then the `(all)` row.
/// Durations are summed in integer milliseconds: each term is at most 28 days, so the sums fit in 64 bits for fewer
/// than 3.8 billion episodes.
package enum GraceWhatIf {
    /// A grace setting of an app in App Store Connect.
    package struct Setting: Hashable, Sendable {
        /// `subscriptionGracePeriods.renewalType`.
        package enum RenewalType: String, Hashable, Sendable, CaseIterable {
            case allRenewals = "all_renewals"
            case paidToPaidOnly = "paid_to_paid_only"
        }

        /// 3, 16 or 28 days; nil when Billing Grace Period is off.
        package var duration: Int?
        /// Nil when off.
        package var renewalType: RenewalType?

        package init(duration: Int?, renewalType: RenewalType?) {
            self.duration = duration
            self.renewalType = duration == nil ? nil : renewalType
        }

        package static let off = Setting(duration: nil, renewalType: nil)
        /// The durations App Store Connect offers, in days.
        package static let durations = [3, 16, 28]

        /// Every setting, in the table's order: off, then 3, 16 and 28 days, each with all renewals and with paid
        /// to paid only.
        package static let all: [Setting] =
            [off]
            + durations.flatMap { days in
                RenewalType.allCases.map { Setting(duration: days, renewalType: $0) }
            }

        /// The most a weekly product gets: 3 days under the 3-day setting, 6 under 16 or 28.
        package static let weeklyMaximumDays = 6
        /// The longest period, in days, of a weekly product.
        package static let weeklyPeriodDays = 7

        /// `off`, `3`, `16` or `28`: the `setting` column.
        package var name: String { duration.map(String.init) ?? "off" }

        /// The effective grace length, in days, of an episode of a product.
        /// - Parameters:
        ///   - isWeekly: the product's period is at most 7 days.
        ///   - isFreeTrialRenewal: the episode's failed renewal was the first charge after a free trial.
        package func effectiveDays(isWeekly: Bool, isFreeTrialRenewal: Bool) -> Int {
            guard let duration else { return 0 }
            if renewalType == .paidToPaidOnly, isFreeTrialRenewal { return 0 }
            return isWeekly ? min(duration, Self.weeklyMaximumDays) : duration
        }

        /// The effective length of a paid renewal of a product: the `grace_days` column.
        package func paidRenewalDays(isWeekly: Bool) -> Int {
            effectiveDays(isWeekly: isWeekly, isFreeTrialRenewal: false)
        }
    }

    /// One row: an app's product (or all its products) under one setting.
    package struct Row: Hashable, Sendable {
        /// Empty for episodes without a bundle id.
        package var bundleId: String
        package var setting: Setting
        /// The product (empty for episodes without one); nil on the `(all)` row.
        package var productId: String?
        /// The product's effective length for a paid renewal; nil on the `(all)` row.
        package var graceDays: Int?
        /// The setting explains what the data show for the app.
        package var isCurrent: Bool
        package var figures: Figures
    }

    /// What one setting would have kept and given away over some mature episodes.
    package struct Figures: Hashable, Sendable {
        package var matureEpisodes = 0
        /// Mature episodes recovered by retry within their effective length (none when it is 0).
        package var recoveredInGrace = 0
        /// Σ duration over the episodes recovered in grace, in milliseconds.
        package var paidKept: Int64 = 0
        /// Σ min(duration, L × 24 h) over the other mature episodes, in milliseconds.
        package var freeAccess: Int64 = 0
        /// ``paidKept`` and ``freeAccess`` valued at the price at stake ÷ the product's period (currency units); nil
        /// when the episodes' prices at stake are not all of one currency, or one has no price or period.
        package var paidAmountKept: Double?
        package var freeAccessAmount: Double?
        /// The one currency of the amounts.
        package var currency: String?

        package init() {}

        /// `paid_days_kept`: ``paidKept`` in days.
        package var paidDaysKept: Double { Double(paidKept) / Double(Milliseconds.day) }
        /// `free_access_days`: ``freeAccess`` in days.
        package var freeAccessDays: Double { Double(freeAccess) / Double(Milliseconds.day) }
        /// `paid_days_kept_per_episode`; nil without a mature episode.
        package var paidDaysKeptPerEpisode: Double? {
            matureEpisodes == 0 ? nil : paidDaysKept / Double(matureEpisodes)
        }
        /// `free_access_days_per_episode`; nil without a mature episode.
        package var freeAccessDaysPerEpisode: Double? {
            matureEpisodes == 0 ? nil : freeAccessDays / Double(matureEpisodes)
        }
    }

    /// The rows over `episodes` (every episode of a report), with the products' grace lengths found in them.
    package static func rows(episodes: [Episode], asOf: Int64) -> [Row] {
        var tally = Tally(asOf: asOf)
        for episode in episodes { tally.add(episode) }
        return tally.rows(graceLengths: GraceLengths(observedIn: episodes))
    }

    /// The rows' counts and sums, added up one episode at a time.
    package struct Tally: Sendable {
        /// Sums of one product under one setting, in integer milliseconds and, for money, Σ duration × price at
        /// stake (ms × milliunits) before the product's period is known.
        private struct Sums: Sendable {
            var matureEpisodes = 0
            var recoveredInGrace = 0
            var paidKept: Int64 = 0
            var freeAccess: Int64 = 0
            var paidValue = 0.0
            var freeValue = 0.0
        }

        /// One product of one app: its mature episodes under each setting, and what decides its period and
        /// whether a setting explains it.
        private struct Product: Sendable {
            /// Sums under the normal-product lengths and the weekly lengths, one per entry of ``Setting/all``: which
            /// of the two applies is known only once the product's period is.
            var normal = Array(repeating: Sums(), count: Setting.all.count)
            var weekly = Array(repeating: Sums(), count: Setting.all.count)
            /// Paid opening transactions' periods, in days → episodes.
            var periods: [Int: Int] = [:]
            /// The currencies of the mature episodes' prices at stake ("" for none), and whether every one had a price.
            var currencies: Set<String> = []
            var everyPriceKnown = true
            /// Episodes that were not the first charge after a free trial: with and without a grace period.
            var paidWithGrace = 0
            var paidWithoutGrace = 0

            mutating func add(_ episode: Episode, isTrial: Bool, asOf: Int64) {
                if !isTrial {
                    if episode.hasGrace { paidWithGrace += 1 } else { paidWithoutGrace += 1 }
                }
                if let days = episode.periodDays { periods[days, default: 0] += 1 }
                guard episode.isMature(asOf: asOf) else { return }
                let duration = episode.duration(asOf: asOf)
                currencies.insert(episode.stakeCurrency ?? "")
                if episode.stakePrice == nil || episode.stakeCurrency == nil { everyPriceKnown = false }
                let price = Double(episode.stakePrice ?? 0)
                let isRetry = episode.outcome == .recovered && episode.recoveredBy == .retry
                for (index, setting) in Setting.all.enumerated() {
                    Tally.add(
                        duration: duration, price: price, isRetry: isRetry,
                        days: setting.effectiveDays(isWeekly: false, isFreeTrialRenewal: isTrial), to: &normal[index])
                    Tally.add(
                        duration: duration, price: price, isRetry: isRetry,
                        days: setting.effectiveDays(isWeekly: true, isFreeTrialRenewal: isTrial), to: &weekly[index])
                }
            }
        }

        /// One app.
        private struct App: Sendable {
            var products: [String: Product] = [:]
            var hasGrace = false
            /// First charges after a free trial, with and without a grace period.
            var trialsWithGrace = 0
            var trialsWithoutGrace = 0

            mutating func add(_ episode: Episode, asOf: Int64) {
                if episode.hasGrace { hasGrace = true }
                let isTrial = episode.isFreeTrialRenewal
                if isTrial {
                    if episode.hasGrace { trialsWithGrace += 1 } else { trialsWithoutGrace += 1 }
                }
                products[episode.productId ?? "", default: Product()].add(episode, isTrial: isTrial, asOf: asOf)
            }
        }

        let asOf: Int64
        private var apps: [String: App] = [:]

        /// - Parameter asOf: the as-of time (Unix ms), which decides which episodes are mature.
        package init(asOf: Int64) {
            self.asOf = asOf
        }

        /// Adds one finished episode of the scope; commitment episodes are left out.
        package mutating func add(_ episode: Episode) {
            guard episode.billingPlan == .standard else { return }
            // Changed in place (the dictionaries' defaulting subscripts), so no app or product is copied.
            apps[episode.bundleId ?? "", default: App()].add(episode, asOf: asOf)
        }

        private static func add(duration: Int64, price: Double, isRetry: Bool, days: Int, to sums: inout Sums) {
            let limit = Int64(days) * Milliseconds.day
            sums.matureEpisodes += 1
            if days > 0, isRetry, duration <= limit {
                sums.recoveredInGrace += 1
                sums.paidKept += duration
                sums.paidValue += Double(duration) * price
            } else {
                let access = min(duration, limit)
                sums.freeAccess += access
                sums.freeValue += Double(access) * price
            }
        }

        /// The product's period in days: the most frequent one among its paid opening transactions (ties: the
        /// shorter, as for grace lengths); nil without one.
        private static func period(of product: Product) -> Int? {
            GraceLengths.mode(product.periods)
        }

        /// Whether `setting` explains what the app's episodes show: off when none had a grace period; otherwise each
        /// product's usual grace length (from `graceLengths`) is its effective length for a paid renewal, a product
        /// whose paid renewals never had grace refutes every setting but off, and first charges after a free trial
        /// mostly had grace under all renewals and mostly none under paid to paid only.
        private static func explains(
            _ setting: Setting, app: App, graceLengths: GraceLengths
        ) -> Bool {
            guard setting.duration != nil else { return !app.hasGrace }
            guard app.hasGrace else { return false }
            let trials = app.trialsWithGrace + app.trialsWithoutGrace
            if trials > 0 {
                let mostlyWithGrace = 2 * app.trialsWithGrace >= trials
                if mostlyWithGrace != (setting.renewalType == .allRenewals) { return false }
            }
            for (productId, product) in app.products {
                let isWeekly = period(of: product).map { $0 <= Setting.weeklyPeriodDays } ?? false
                let expected = setting.paidRenewalDays(isWeekly: isWeekly)
                if let observed = graceLengths.length(productId: productId, bundleId: nil) {
                    if observed != expected { return false }
                } else if product.paidWithGrace == 0, product.paidWithoutGrace > 0 {
                    return false
                }
            }
            return true
        }

        /// The rows.
        /// - Parameter graceLengths: the usual grace lengths of every episode of the report (before any filter),
        ///   which decide the current setting.
        package func rows(graceLengths: GraceLengths) -> [Row] {
            var rows: [Row] = []
            for (bundleId, app) in apps.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                let products = app.products.filter { $0.value.normal[0].matureEpisodes > 0 }
                    .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                guard !products.isEmpty else { continue }
                for (index, setting) in Setting.all.enumerated() {
                    let isCurrent = Self.explains(setting, app: app, graceLengths: graceLengths)
                    var total = Figures()
                    var totalCurrencies: Set<String> = []
                    var totalPriced = true
                    for (productId, product) in products {
                        let period = Self.period(of: product)
                        let isWeekly = period.map { $0 <= Setting.weeklyPeriodDays } ?? false
                        let sums = isWeekly ? product.weekly[index] : product.normal[index]
                        let priced = product.everyPriceKnown && product.currencies.count == 1 && period != nil
                        var figures = Figures()
                        figures.matureEpisodes = sums.matureEpisodes
                        figures.recoveredInGrace = sums.recoveredInGrace
                        figures.paidKept = sums.paidKept
                        figures.freeAccess = sums.freeAccess
                        if priced, let period, period > 0 {
                            // ms × milliunits → days × currency units, per day of the period.
                            let scale = Double(Milliseconds.day) * 1000 * Double(period)
                            figures.paidAmountKept = sums.paidValue / scale
                            figures.freeAccessAmount = sums.freeValue / scale
                            figures.currency = product.currencies.first
                        }
                        rows.append(
                            Row(
                                bundleId: bundleId, setting: setting, productId: productId,
                                graceDays: setting.paidRenewalDays(isWeekly: isWeekly), isCurrent: isCurrent,
                                figures: figures))
                        total.matureEpisodes += figures.matureEpisodes
                        total.recoveredInGrace += figures.recoveredInGrace
                        total.paidKept += figures.paidKept
                        total.freeAccess += figures.freeAccess
                        totalCurrencies.formUnion(product.currencies)
                        totalPriced = totalPriced && figures.paidAmountKept != nil
                        total.paidAmountKept = (total.paidAmountKept ?? 0) + (figures.paidAmountKept ?? 0)
                        total.freeAccessAmount = (total.freeAccessAmount ?? 0) + (figures.freeAccessAmount ?? 0)
                    }
                    if totalPriced, totalCurrencies.count == 1 {
                        total.currency = totalCurrencies.first
                    } else {
                        total.paidAmountKept = nil
                        total.freeAccessAmount = nil
                    }
                    rows.append(
                        Row(
                            bundleId: bundleId, setting: setting, productId: nil, graceDays: nil, isCurrent: isCurrent,
                            figures: total))
                }
            }
            return rows
        }
    }
}
