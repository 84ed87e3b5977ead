/// `recovery_by_cohort.csv`: outcomes and recovery rate per cohort and product, with totals.
///
/// Rows: cohorts ascending; within a cohort its products ascending (UTF-8 byte order, a missing product as an
/// empty cell first), then the cohort's total `(cohort, (all))`. After all cohorts: each product over all
/// cohorts `((all), product)`, then the grand total `((all), (all))`, which is always present.
package enum RecoveryByCohort {
    package static let fileName = "recovery_by_cohort.csv"
    package static let columns = [
        "cohort", "product_id", "episodes", "recovered", "expired", "cancelled", "other", "open", "recovery_rate",
    ]

    package static func table(
        episodes: [Episode],
        granularity: CalendarPeriod.Granularity = .month
    ) -> ReportTable {
        var byCohortProduct: [CohortProduct: OutcomeCounts] = [:]
        var byCohort: [CalendarPeriod: OutcomeCounts] = [:]
        var byProduct: [String: OutcomeCounts] = [:]
        var total = OutcomeCounts()
        for episode in episodes {
            let cohort = episode.cohort(granularity)
            let product = episode.productId ?? ""
            byCohortProduct[CohortProduct(cohort: cohort, product: product), default: OutcomeCounts()].add(episode)
            byCohort[cohort, default: OutcomeCounts()].add(episode)
            byProduct[product, default: OutcomeCounts()].add(episode)
            total.add(episode)
        }

        var table = ReportTable(name: fileName, columns: columns)
        let keys = byCohortProduct.keys.sorted()
        var index = keys.startIndex
        for cohort in byCohort.keys.sorted() {
            while index < keys.endIndex, keys[index].cohort == cohort {
                let key = keys[index]
                table.rows.append(row(cohort.description, key.product, byCohortProduct[key] ?? OutcomeCounts()))
                index += 1
            }
            table.rows.append(row(cohort.description, ReportTable.total, byCohort[cohort] ?? OutcomeCounts()))
        }
        for product in byProduct.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            table.rows.append(row(ReportTable.total, product, byProduct[product] ?? OutcomeCounts()))
        }
        table.rows.append(row(ReportTable.total, ReportTable.total, total))
        return table
    }

    private static func row(_ cohort: String, _ product: String, _ counts: OutcomeCounts) -> [ReportTable.Cell] {
        [.text(cohort), .text(product)] + counts.cells
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
