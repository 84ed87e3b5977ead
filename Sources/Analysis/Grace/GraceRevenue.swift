/// The figures of `grace_revenue.csv`: per currency, the episodes saved in grace and the price of their recovering
/// transactions.
///
/// Sums are kept in integer milliunits; currencies are never added together, so there is no total row. Rows:
/// currencies ascending (UTF-8 byte order); a saved episode without a currency counts under the empty currency, one
/// without a price adds 0 to the revenue.
package enum GraceRevenue {
    /// Saved episodes and revenue in one currency.
    package struct Saved: Hashable, Sendable {
        package var episodes = 0
        /// Milliunits; nil when the sum does not fit in 64 bits.
        package var revenue: Int64? = 0

        package init() {}
    }

    /// One currency's row.
    package struct Row: Hashable, Sendable {
        /// Empty for episodes without a currency.
        package var currency: String
        package var saved: Saved

        package init(currency: String, saved: Saved) {
            self.currency = currency
            self.saved = saved
        }
    }

    /// The rows, by currency.
    package static func rows(episodes: [Episode]) -> [Row] {
        var tally = Tally()
        for episode in episodes { tally.add(episode) }
        return tally.rows
    }

    /// The rows' sums, added up one episode at a time.
    package struct Tally: Sendable {
        private var byCurrency: [String: Saved] = [:]

        package init() {}

        /// Counts `episode` when it was saved in grace.
        package mutating func add(_ episode: Episode) {
            guard episode.isSavedInGrace else { return }
            var saved = byCurrency[episode.recoveryCurrency ?? "", default: Saved()]
            saved.episodes += 1
            saved.revenue = Milliunits.adding(episode.recoveryPrice, to: saved.revenue)
            byCurrency[episode.recoveryCurrency ?? ""] = saved
        }

        /// The rows, by currency.
        package var rows: [Row] {
            byCurrency.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .map { Row(currency: $0.key, saved: $0.value) }
        }
    }
}
