/// `returns.csv` (METRICS.md v2.1, "Customers who come back"): of the expired episodes (involuntary churn,
/// inferred expiries included), how many customers came back, and how soon, per group (month of the episode's end
/// by default) and over all.
package enum Returns {
    /// The days at which the share returned is estimated.
    package static let horizons = [30, 90, 180]

    /// One row of `returns.csv`, or of `churn query returns`.
    package struct Row: Hashable, Sendable {
        /// The group's value (`YYYY-MM` of the end, a product, a storefront), `(all)` for the total.
        package var group: String
        /// Expired episodes ending by the as-of time.
        package var expired: Int
        /// Those whose customer came back by the as-of time.
        package var returned: Int
        /// 1 − the Kaplan–Meier survival at 30, 90 and 180 days (``ReturnSurvival``); nil where no follow-up reaches
        /// the day.
        package var returned30d: Double?
        package var returned90d: Double?
        package var returned180d: Double?
        /// 95 % intervals of the three shares (the share ± z · Greenwood's standard error, within [0, 1]); nil
        /// where the share is nil or its error cannot be estimated. For people: the CSV file has no column for them.
        package var intervals: [ConfidenceInterval?] = [nil, nil, nil]
    }

    /// How returns are grouped.
    package enum Grouping: String, CaseIterable, Hashable, Sendable {
        /// UTC month of the episode's end, `YYYY-MM`: `returns.csv`.
        case month
        case product
        case storefront
    }

    /// One expired episode and its return, as the store finds them.
    package struct FollowUp: Hashable, Sendable {
        /// The episode's subscription.
        package var subscription: String
        /// The episode's end e (Unix ms).
        package var end: Int64
        /// The earliest `purchaseDate` after e of a `SUBSCRIBED` or `OFFER_REDEEMED` of the same customer, signed by
        /// the as-of time; nil when none.
        package var returnedAt: Int64?
        package var productId: String?
        package var storefront: String?

        package init(
            subscription: String, end: Int64, returnedAt: Int64?, productId: String? = nil, storefront: String? = nil
        ) {
            self.subscription = subscription
            self.end = end
            self.returnedAt = returnedAt
            self.productId = productId
            self.storefront = storefront
        }
    }

    /// Adds expired episodes' follow-ups up by group.
    package struct Tally: Sendable {
        package let asOf: Int64
        package let grouping: Grouping
        private var groups: [String: ReturnSurvival] = [:]
        private var all = ReturnSurvival()
        private var returnedCounts: [String: Int] = [:]
        private var returnedAll = 0

        package init(asOf: Int64, grouping: Grouping = .month) {
            self.asOf = asOf
            self.grouping = grouping
        }

        /// Adds one expired episode; an episode ending after the as-of time is not yet expired and is left out.
        package mutating func add(_ followUp: FollowUp) {
            guard followUp.end <= asOf else { return }
            let group: String
            switch grouping {
            case .month: group = CalendarPeriod(monthContaining: followUp.end).description
            case .product: group = followUp.productId ?? ""
            case .storefront: group = followUp.storefront ?? ""
            }
            let survival: ReturnSurvival.FollowUp
            if let returnedAt = followUp.returnedAt, returnedAt <= asOf {
                survival = .init(time: returnedAt - followUp.end, returned: true)
                returnedCounts[group, default: 0] += 1
                returnedAll += 1
            } else {
                survival = .init(time: asOf - followUp.end, returned: false)
            }
            groups[group, default: ReturnSurvival()].add(survival)
            all.add(survival)
        }

        /// The groups in ascending order, then `(all)`; no rows when no episode expired.
        package var rows: [Row] {
            guard !all.isEmpty else { return [] }
            return groups.keys.sorted().map { key in
                Self.row(key, groups[key] ?? ReturnSurvival(), returned: returnedCounts[key] ?? 0)
            } + [Self.row("(all)", all, returned: returnedAll)]
        }

        private static func row(_ group: String, _ survival: ReturnSurvival, returned: Int) -> Row {
            let times = Returns.horizons.map { Int64($0) * Milliseconds.day }
            let shares = survival.returned(by: times)
            let intervals = zip(shares, times).map { share, time -> ConfidenceInterval? in
                guard let share, let error = survival.standardError(at: time) else { return nil }
                let margin = ConfidenceInterval.z * error
                return ConfidenceInterval(low: max(0, share - margin), high: min(1, share + margin))
            }
            return Row(
                group: group, expired: survival.count, returned: returned, returned30d: shares[0],
                returned90d: shares[1], returned180d: shares[2], intervals: intervals)
        }
    }
}
