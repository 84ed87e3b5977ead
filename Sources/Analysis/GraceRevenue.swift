/// `grace_revenue.csv`: per currency, the episodes saved in grace and the price of their recovering transactions.
///
/// Sums are kept in integer milliunits and written as currency units with 3 decimals; currencies are never
/// added together, so there is no total row. Rows: currencies ascending (UTF-8 byte order); a saved episode
/// without a currency counts under an empty currency cell, one without a price adds 0 to the revenue.
package enum GraceRevenue {
    package static let fileName = "grace_revenue.csv"
    package static let columns = ["currency", "saved_episodes", "revenue_saved"]

    /// Saved episodes and revenue in one currency.
    package struct Saved: Hashable, Sendable {
        package var episodes = 0
        /// Milliunits; nil when the sum does not fit in 64 bits.
        package var revenue: Int64? = 0

        package init() {}
    }

    package static func revenue(episodes: [Episode]) -> [String: Saved] {
        var byCurrency: [String: Saved] = [:]
        for episode in episodes where episode.isSavedInGrace {
            var saved = byCurrency[episode.recoveryCurrency ?? "", default: Saved()]
            saved.episodes += 1
            saved.revenue = Milliunits.adding(episode.recoveryPrice, to: saved.revenue)
            byCurrency[episode.recoveryCurrency ?? ""] = saved
        }
        return byCurrency
    }

    package static func table(episodes: [Episode]) -> ReportTable {
        let byCurrency = revenue(episodes: episodes)
        var table = ReportTable(name: fileName, columns: columns)
        for currency in byCurrency.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let saved = byCurrency[currency] ?? Saved()
            table.rows.append([
                .text(currency), .integer(saved.episodes), saved.revenue.map { .milliunits($0) } ?? .empty,
            ])
        }
        return table
    }
}
