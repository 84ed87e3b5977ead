/// The figures of `recovery_by_cohort.csv`: outcomes and recovery rate per cohort and product, with totals; the
/// recovery rate of mature episodes (t0 + 61 × 24 h ≤ as-of) with its Wilson interval.
///
/// Rows: cohorts ascending; within a cohort its products ascending (UTF-8 byte order, a missing product as the
/// empty product first), then the cohort's total `(cohort, (all))`. After all cohorts: each product over all
/// cohorts `((all), product)`, then the grand total `((all), (all))`, which is always present.
package enum RecoveryByCohort {
    /// One row's episodes: all of them by outcome, and the mature ones.
    package struct Row: Hashable, Sendable {
        /// The cohort; nil for all cohorts.
        package var cohort: CalendarPeriod?
        /// The product (empty for episodes without one); nil for all products.
        package var productId: String?
        package var outcomes = OutcomeCounts()
        package var mature = MatureCounts()

        package init(cohort: CalendarPeriod?, productId: String?) {
            self.cohort = cohort
            self.productId = productId
        }

        package mutating func add(_ episode: Episode, asOf: Int64) {
            outcomes.add(episode)
            mature.add(episode, asOf: asOf)
        }
    }

    /// The rows, in the order above.
    ///
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms), which decides which episodes are mature.
    ///   - granularity: cohorts by month or ISO week.
    package static func rows(
        episodes: [Episode],
        asOf: Int64,
        granularity: CalendarPeriod.Granularity = .month
    ) -> [Row] {
        var tally = Tally(asOf: asOf, granularity: granularity)
        for episode in episodes { tally.add(episode) }
        return tally.rows
    }

    /// The rows' counts, added up one episode at a time; holds counts per cohort and product, never episodes.
    package struct Tally: Sendable {
        let asOf: Int64
        let granularity: CalendarPeriod.Granularity
        private var byCohortProduct: [CohortProduct: Row] = [:]
        private var byCohort: [CalendarPeriod: Row] = [:]
        private var byProduct: [String: Row] = [:]
        private var total = Row(cohort: nil, productId: nil)

        /// - Parameters:
        ///   - asOf: the as-of time (Unix ms), which decides which episodes are mature.
        ///   - granularity: cohorts by month or ISO week.
        package init(asOf: Int64, granularity: CalendarPeriod.Granularity = .month) {
            self.asOf = asOf
            self.granularity = granularity
        }

        package mutating func add(_ episode: Episode) {
            let cohort = episode.cohort(granularity)
            let product = episode.productId ?? ""
            let key = CohortProduct(cohort: cohort, product: product)
            byCohortProduct[key, default: Row(cohort: cohort, productId: product)].add(episode, asOf: asOf)
            byCohort[cohort, default: Row(cohort: cohort, productId: nil)].add(episode, asOf: asOf)
            byProduct[product, default: Row(cohort: nil, productId: product)].add(episode, asOf: asOf)
            total.add(episode, asOf: asOf)
        }

        /// The rows, in the order above.
        package var rows: [Row] {
            var rows: [Row] = []
            let cohortProducts = byCohortProduct.sorted { $0.key < $1.key }.map(\.value)
            var index = cohortProducts.startIndex
            for cohortTotal in byCohort.sorted(by: { $0.key < $1.key }).map(\.value) {
                while index < cohortProducts.endIndex, cohortProducts[index].cohort == cohortTotal.cohort {
                    rows.append(cohortProducts[index])
                    index += 1
                }
                rows.append(cohortTotal)
            }
            rows += byProduct.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
            rows.append(total)
            return rows
        }
    }

    private struct CohortProduct: Hashable, Comparable {
        var cohort: CalendarPeriod
        var product: String

        static func < (lhs: CohortProduct, rhs: CohortProduct) -> Bool {
            if lhs.cohort != rhs.cohort { return lhs.cohort < rhs.cohort }
            return lhs.product.utf8.lexicographicallyPrecedes(rhs.product.utf8)
        }
    }
}
