/// An attribute episodes can be grouped by in an ad-hoc question (`churn query --group-by`).
package enum EpisodeGrouping: String, Hashable, Sendable, CaseIterable {
    /// The UTC calendar month of t0, `2024-03` (the report's default cohort).
    case cohortMonth = "cohort-month"
    /// The ISO 8601 week of t0, `2024-W09`.
    case cohortWeek = "cohort-week"
    /// The app: the bundle id of the episode's notifications (empty when missing).
    case app
    /// The product of the opening transaction (empty when missing).
    case product
    /// The storefront of the opening transaction (empty when missing).
    case storefront
    /// The offer type of the opening transaction (1 introductory, 2 promotional, 3 offer code, 4 win-back), or
    /// `none`.
    case offerType = "offer-type"
    /// The configured grace period in days (``Episode/graceDays``): 3, 16, 28, …; `none` without grace,
    /// `unknown` for a grace period whose end is not known.
    case graceLength = "grace-length"

    /// One group's value of the attribute.
    ///
    /// Values sort like the report's rows: `none` first, then numbers ascending, cohorts chronologically, text by
    /// UTF-8 bytes (an empty text first), and `unknown` last.
    package enum Value: Hashable, Sendable, Comparable {
        case none
        case number(Int)
        case period(CalendarPeriod)
        case text(String)
        case unknown

        package static func < (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.number(let left), .number(let right)): return left < right
            case (.period(let left), .period(let right)): return left < right
            case (.text(let left), .text(let right)): return left.utf8.lexicographicallyPrecedes(right.utf8)
            default: return lhs.rank < rhs.rank
            }
        }

        private var rank: Int {
            switch self {
            case .none: return 0
            case .number: return 1
            case .period: return 2
            case .text: return 3
            case .unknown: return 4
            }
        }
    }

    /// The group `episode` belongs to.
    package func value(of episode: Episode) -> Value {
        switch self {
        case .cohortMonth: return .period(episode.cohort(.month))
        case .cohortWeek: return .period(episode.cohort(.week))
        case .app: return .text(episode.bundleId ?? "")
        case .product: return .text(episode.productId ?? "")
        case .storefront: return .text(episode.storefront ?? "")
        case .offerType: return episode.offerType.map { .number(Int($0)) } ?? .none
        case .graceLength:
            guard episode.hasGrace else { return .none }
            return episode.graceDays.map { .number($0) } ?? .unknown
        }
    }
}
