/// The figures of `grace_whatif.csv`: per product and grace length G of 0, 3, 6, 16 and 28 days, what the grace
/// period would have kept as paid service and given away as free access over the product's mature episodes
/// (METRICS.md, "What another grace length would have kept or given away").
///
/// Every recovery is assumed to come when it came, whatever the grace length. A mature episode recovered by retry
/// (`recovered_by` = `retry`) within G × 24 h is *recovered in grace*: its days since t0 were paid service (0 when
/// G = 0: there is no grace). Every other mature episode had access for min(duration, G × 24 h) without paying
/// for it. `current` marks the G that equals the product's grace length, as the grace-end inference finds it
/// (``currentLength(hasGrace:productId:bundleIds:graceLengths:)``).
///
/// Rows: every product with an episode in scope (mature or not), in UTF-8 byte order (a missing product as the
/// empty product, first), each with one row per G in ``graceLengths`` order; no total row. Durations are summed in
/// integer milliseconds: each term is at most 28 days, so the sums fit in 64 bits for fewer than 3.8 billion
/// episodes.
package enum GraceWhatIf {
    /// The lengths of the table, in days: none, Apple's 3, 16 and 28 days, and 6, the cap of weekly products.
    package static let graceLengths = [0, 3, 6, 16, 28]

    /// One product's figures under one grace length.
    package struct Row: Hashable, Sendable {
        /// Empty for episodes without a product.
        package var productId: String
        /// G, in days.
        package var graceDays: Int
        /// G is the product's grace length.
        package var isCurrent: Bool
        package var figures: Figures
    }

    /// What one grace length would have kept and given away over the mature episodes of a product.
    package struct Figures: Hashable, Sendable {
        package var matureEpisodes = 0
        /// Mature episodes recovered by retry within G × 24 h (none when G = 0).
        package var recoveredInGrace = 0
        /// Σ duration over the episodes recovered in grace, in milliseconds.
        package var paidKept: Int64 = 0
        /// Σ min(duration, G × 24 h) over the other mature episodes, in milliseconds.
        package var freeAccess: Int64 = 0

        package init() {}

        /// Adds one mature episode of `duration` milliseconds under a grace period of `graceDays` days.
        mutating func add(_ episode: Episode, duration: Int64, graceDays: Int) {
            let limit = Int64(graceDays) * Milliseconds.day
            matureEpisodes += 1
            if graceDays > 0, episode.outcome == .recovered, episode.recoveredBy == .retry, duration <= limit {
                recoveredInGrace += 1
                paidKept += duration
            } else {
                freeAccess += min(duration, limit)
            }
        }

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

    /// The rows over `episodes`, the product's grace length found in `episodes` themselves (as the grace-end
    /// inference finds it when they are every episode of the report).
    ///
    /// - Parameters:
    ///   - episodes: the finished episodes in scope.
    ///   - asOf: the as-of time (Unix ms), which decides which episodes are mature.
    package static func rows(episodes: [Episode], asOf: Int64) -> [Row] {
        var tally = Tally(asOf: asOf)
        for episode in episodes { tally.add(episode) }
        return tally.rows(graceLengths: GraceLengths(observedIn: episodes))
    }

    /// The product's grace length as the grace-end inference finds it (METRICS.md, "Grace without a date"): 0
    /// when none of its episodes has a grace period; else its own usual length, or the usual length of the app of
    /// its grace episodes; nil when there is none, or when its grace episodes belong to apps whose lengths differ
    /// (or to no app).
    ///
    /// - Parameters:
    ///   - hasGrace: whether any of the product's episodes has a grace period.
    ///   - productId: the product (empty for episodes without one).
    ///   - bundleIds: the apps (`bundleId`) of the product's grace episodes, nil for one without.
    ///   - graceLengths: the usual lengths of every episode of the report.
    package static func currentLength(
        hasGrace: Bool, productId: String, bundleIds: Set<String?>, graceLengths: GraceLengths
    ) -> Int? {
        guard hasGrace else { return 0 }
        if let days = graceLengths.length(productId: productId, bundleId: nil) { return days }
        let lengths = Set(bundleIds.map { $0.flatMap { graceLengths.length(productId: nil, bundleId: $0) } })
        guard lengths.count == 1, let only = lengths.first else { return nil }
        return only
    }

    /// The rows' counts and sums, added up one episode at a time.
    package struct Tally: Sendable {
        /// One product's episodes so far.
        private struct Product: Sendable {
            var hasGrace = false
            var bundleIds: Set<String?> = []
            /// One per entry of ``GraceWhatIf/graceLengths``.
            var figures = Array(repeating: Figures(), count: GraceWhatIf.graceLengths.count)
        }

        let asOf: Int64
        private var products: [String: Product] = [:]

        /// - Parameter asOf: the as-of time (Unix ms), which decides which episodes are mature.
        package init(asOf: Int64) {
            self.asOf = asOf
        }

        /// Adds one finished episode of the scope; commitment episodes, which no grace setting applies to, are left
        /// out.
        package mutating func add(_ episode: Episode) {
            guard episode.billingPlan == .standard else { return }
            let key = episode.productId ?? ""
            var product = products[key, default: Product()]
            if episode.hasGrace {
                product.hasGrace = true
                product.bundleIds.insert(episode.bundleId)
            }
            if episode.isMature(asOf: asOf) {
                let duration = episode.duration(asOf: asOf)
                for (index, days) in GraceWhatIf.graceLengths.enumerated() {
                    product.figures[index].add(episode, duration: duration, graceDays: days)
                }
            }
            products[key] = product
        }

        /// The rows: products in UTF-8 byte order, each with one row per grace length.
        /// - Parameter graceLengths: the usual grace lengths of every episode of the report (before any filter),
        ///   which decide each product's `current` row.
        package func rows(graceLengths: GraceLengths) -> [Row] {
            products.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.flatMap { productId, product in
                let current = GraceWhatIf.currentLength(
                    hasGrace: product.hasGrace, productId: productId, bundleIds: product.bundleIds,
                    graceLengths: graceLengths)
                return zip(GraceWhatIf.graceLengths, product.figures).map { days, figures in
                    Row(productId: productId, graceDays: days, isCurrent: days == current, figures: figures)
                }
            }
        }
    }
}
