/// `recovery_by_cohort.csv`: outcomes and recovery rate per cohort and product, with totals; the recovery rate of
/// mature episodes (t0 + 61 × 24 h ≤ as-of) with its Wilson interval.
///
/// Rows: cohorts ascending; within a cohort its products ascending (UTF-8 byte order, a missing product as an
/// empty cell first), then the cohort's total `(cohort, (all))`. After all cohorts: each product over all
/// cohorts `((all), product)`, then the grand total `((all), (all))`, which is always present.
package enum RecoveryByCohort {
    package static let fileName = "recovery_by_cohort.csv"
    package static let columns = [
        "cohort", "product_id", "episodes", "recovered", "expired", "cancelled", "other", "open", "recovery_rate",
        "mature_episodes", "mature_recovered", "mature_recovery_rate", "mature_recovery_rate_low",
        "mature_recovery_rate_high",
    ]

    /// The table.
    ///
    /// - Parameters:
    ///   - episodes: the episodes in scope.
    ///   - asOf: the as-of time (Unix ms), which decides which episodes are mature.
    ///   - granularity: cohorts by month or ISO week.
    package static func table(
        episodes: [Episode],
        asOf: Int64,
        granularity: CalendarPeriod.Granularity = .month
    ) -> ReportTable {
        var byCohortProduct: [CohortProduct: Counts] = [:]
        var byCohort: [CalendarPeriod: Counts] = [:]
        var byProduct: [String: Counts] = [:]
        var total = Counts()
        for episode in episodes {
            let cohort = episode.cohort(granularity)
            let product = episode.productId ?? ""
            let key = CohortProduct(cohort: cohort, product: product)
            byCohortProduct[key, default: Counts()].add(episode, asOf: asOf)
            byCohort[cohort, default: Counts()].add(episode, asOf: asOf)
            byProduct[product, default: Counts()].add(episode, asOf: asOf)
            total.add(episode, asOf: asOf)
        }

        var table = ReportTable(name: fileName, columns: columns)
        let keys = byCohortProduct.keys.sorted()
        var index = keys.startIndex
        for cohort in byCohort.keys.sorted() {
            while index < keys.endIndex, keys[index].cohort == cohort {
                let key = keys[index]
                table.rows.append(row(cohort.description, key.product, byCohortProduct[key] ?? Counts()))
                index += 1
            }
            table.rows.append(row(cohort.description, ReportTable.total, byCohort[cohort] ?? Counts()))
        }
        for product in byProduct.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            table.rows.append(row(ReportTable.total, product, byProduct[product] ?? Counts()))
        }
        table.rows.append(row(ReportTable.total, ReportTable.total, total))
        return table
    }

    private static func row(_ cohort: String, _ product: String, _ counts: Counts) -> [ReportTable.Cell] {
        [.text(cohort), .text(product)] + counts.outcomes.cells + counts.mature.cells
    }

    /// One row's episodes: all of them by outcome, and the mature ones.
    private struct Counts {
        var outcomes = OutcomeCounts()
        var mature = MatureCounts()

        mutating func add(_ episode: Episode, asOf: Int64) {
            outcomes.add(episode)
            mature.add(episode, asOf: asOf)
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
