/// The figures of `open_episodes.csv` and of the expected columns of `revenue.csv` (METRICS.md v2.1, "What retry is
/// still expected to bring back"): every open episode with its chance of recovery by the end of its retry window
/// (day 60, or 90 under a commitment), weighed by the report's own recovery curve of its plan.
///
/// The chance of an episode needs the curve of the whole scope, known only once every episode is added, so the
/// tally keeps what the list needs of each open episode (open episodes are the latest 60 days of failures, a small
/// part of all) and computes the chances at the end.
package enum OpenEpisodes {
    /// One open episode of the list.
    package struct Row: Hashable, Sendable {
        package var subscription: String
        /// The latest non-empty `appAccountToken` of the subscription; nil when none.
        package var appAccountToken: String?
        package var productId: String?
        package var storefront: String?
        /// t0 (Unix ms).
        package var start: Int64
        /// ⌊u / 24 h⌋ + 1, with u the duration at the as-of time.
        package var dayOfRetry: Int
        /// The grace period's end; nil without grace or when unknown.
        package var graceEnd: Int64?
        /// `graceEnd` > as-of: the customer still has access.
        package var inGrace: Bool
        /// The price at stake, milliunits.
        package var stakePrice: Int64?
        package var stakeCurrency: String?
        /// (CIF(H) − CIF(u)) / S(u) of the episode's own plan (``RecoveryCurve/Estimates``).
        package var recoveryChance: Double
        package var billingPlan: Episode.BillingPlan
        /// ``Episode/installmentsAtRisk``.
        package var installmentsAtRisk: Int

        package init(
            subscription: String, appAccountToken: String?, productId: String?, storefront: String?, start: Int64,
            dayOfRetry: Int, graceEnd: Int64?, inGrace: Bool, stakePrice: Int64?, stakeCurrency: String?,
            recoveryChance: Double, billingPlan: Episode.BillingPlan = .standard, installmentsAtRisk: Int = 1
        ) {
            self.subscription = subscription
            self.appAccountToken = appAccountToken
            self.productId = productId
            self.storefront = storefront
            self.start = start
            self.dayOfRetry = dayOfRetry
            self.graceEnd = graceEnd
            self.inGrace = inGrace
            self.stakePrice = stakePrice
            self.stakeCurrency = stakeCurrency
            self.recoveryChance = recoveryChance
            self.billingPlan = billingPlan
            self.installmentsAtRisk = installmentsAtRisk
        }

        /// The expected amount: the chance times the price at stake, in currency units (0 without a price).
        package var expectedAmount: Double {
            recoveryChance * Double(stakePrice ?? 0) / 1000
        }
    }

    /// What retry is expected to bring back in one currency (the price at stake's).
    package struct Expected: Hashable, Sendable {
        /// Σ recovery_chance.
        package var recoveries = 0.0
        /// Σ recovery_chance × price at stake, in currency units.
        package var amount = 0.0

        package init(recoveries: Double = 0, amount: Double = 0) {
            self.recoveries = recoveries
            self.amount = amount
        }
    }

    /// Which open episodes a list shows, and in what order (`churn query open-episodes`).
    package struct Selection: Hashable, Sendable {
        /// The order of the list.
        package enum Order: String, Hashable, Sendable, CaseIterable {
            /// By the price at stake's currency, then the expected amount (chance × price at stake) from the largest:
            /// amounts of different currencies are never compared.
            case expected
            /// By the recovery chance, largest first.
            case chance
            /// By the day of retry, latest first: the customers retry is about to give up on.
            case day
            /// By t0, newest first, as `open_episodes.csv`.
            case start
        }

        /// Only episodes in grace (true) or past it or without one (false); nil for both.
        package var inGrace: Bool?
        /// Only episodes whose recovery chance is at least this.
        package var minimumChance: Double?
        /// Only episodes at least this many days into retry (``Row/dayOfRetry``).
        package var minimumDay: Int?
        package var order: Order

        package init(
            inGrace: Bool? = nil, minimumChance: Double? = nil, minimumDay: Int? = nil, order: Order = .expected
        ) {
            self.inGrace = inGrace
            self.minimumChance = minimumChance
            self.minimumDay = minimumDay
            self.order = order
        }

        /// `rows` (newest first, as ``Tally/rows(estimates:)`` gives them) that pass, in the selection's order; ties
        /// keep that order.
        package func apply(_ rows: [Row]) -> [Row] {
            let kept = rows.filter { row in
                (inGrace.map { row.inGrace == $0 } ?? true) && (minimumChance.map { row.recoveryChance >= $0 } ?? true)
                    && (minimumDay.map { row.dayOfRetry >= $0 } ?? true)
            }
            let ranked = kept.enumerated().sorted { lhs, rhs in
                let (a, b) = (lhs.element, rhs.element)
                switch order {
                case .expected:
                    let (x, y) = (a.stakeCurrency ?? "", b.stakeCurrency ?? "")
                    if x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) }
                    if a.expectedAmount != b.expectedAmount { return a.expectedAmount > b.expectedAmount }
                case .chance:
                    if a.recoveryChance != b.recoveryChance { return a.recoveryChance > b.recoveryChance }
                case .day:
                    if a.dayOfRetry != b.dayOfRetry { return a.dayOfRetry > b.dayOfRetry }
                case .start:
                    break
                }
                return lhs.offset < rhs.offset
            }
            return ranked.map(\.element)
        }
    }

    /// The open episodes, added one at a time: what the list needs of each (its row without the chance, and its
    /// duration), never the episode.
    package struct Tally: Sendable {
        let asOf: Int64
        /// The rows, without their chances, and beside them each row's duration.
        private var open: [Row] = []
        private var durations: [Int64] = []

        package init(asOf: Int64) {
            self.asOf = asOf
        }

        package mutating func add(_ episode: Episode) {
            guard episode.isOpen else { return }
            let duration = episode.duration(asOf: asOf)
            let graceEnd = episode.hasGrace ? episode.graceEnd : nil
            // A UUID as it is written (METRICS.md v2.2), so that the token joins the app's own ids whatever case
            // Swift's `uuidString` (upper case) or another client sent.
            let row = Row(
                subscription: episode.subscription, appAccountToken: episode.appAccountToken?.lowercased(),
                productId: episode.productId, storefront: episode.storefront, start: episode.start,
                dayOfRetry: Int(duration / Milliseconds.day) + 1, graceEnd: graceEnd,
                inGrace: graceEnd.map { $0 > asOf } ?? false, stakePrice: episode.stakePrice,
                stakeCurrency: episode.stakeCurrency, recoveryChance: 0, billingPlan: episode.billingPlan,
                installmentsAtRisk: episode.installmentsAtRisk
            )
            open.append(row)
            durations.append(duration)
        }

        /// The list, newest first (METRICS.md v2.2: t0 descending, then `original_transaction_id` in UTF-8 byte order; a
        /// failure caught early is the easiest to mend), with each chance from its own plan's estimate.
        package func rows(estimates: RecoveryCurve.Estimates) -> [Row] {
            var copy = self
            return copy.takeRows(estimates: estimates)
        }

        /// ``rows(estimates:)``, moved out of the tally, which is left empty: a large database has tens of thousands
        /// of open episodes, and a tally held uniquely (a report's, consumed) gives its rows without a copy of the
        /// list, megabytes of peak memory less.
        package mutating func takeRows(estimates: RecoveryCurve.Estimates) -> [Row] {
            var rows = open
            open = []
            for index in rows.indices {
                rows[index].recoveryChance = estimates.recoveryChance(
                    duration: durations[index], plan: rows[index].billingPlan)
            }
            durations = []
            rows.sort { lhs, rhs in
                lhs.start != rhs.start
                    ? lhs.start > rhs.start : lhs.subscription.utf8.lexicographicallyPrecedes(rhs.subscription.utf8)
            }
            return rows
        }
    }

    /// `revenue.csv`'s rows with the expected recoveries and amount of `open`'s episodes.
    package static func revenue(_ rows: [Revenue.Row], expectedFrom open: [Row]) -> [Revenue.Row] {
        let expected = Self.expected(open)
        return rows.map { row in
            var row = row
            row.expected = expected[row.currency] ?? Expected()
            return row
        }
    }

    /// The expected recoveries and amount per currency of the price at stake (a missing currency as "").
    package static func expected(_ rows: [Row]) -> [String: Expected] {
        var byCurrency: [String: Expected] = [:]
        for row in rows {
            byCurrency[row.stakeCurrency ?? "", default: Expected()].recoveries += row.recoveryChance
            byCurrency[row.stakeCurrency ?? "", default: Expected()].amount += row.expectedAmount
        }
        return byCurrency
    }
}
