/// The figures of `revenue.csv`: per currency, the money recovered, saved in grace, lost to expiry, still at risk,
/// and what retry is expected to bring back of it (METRICS.md, "Money and flows" and v2.1's "What retry is still
/// expected to bring back").
///
/// Recovered episodes count under the recovering transaction's currency with its `price`; expired and open
/// episodes under the currency of the price at stake with that price. Cancelled and `other` episodes count
/// nowhere. Amounts are customer prices before the App Store's commission, summed in integer milliunits; a sum
/// that does not fit in 64 bits is nil, a missing price adds 0. Currencies are never added together, so there is
/// no total row. Rows: currencies with a non-zero figure, ascending (UTF-8 byte order), a missing currency as the
/// empty currency (first).
package enum Revenue {
    /// One currency's row.
    package struct Row: Hashable, Sendable {
        /// Empty for episodes without a currency.
        package var currency: String
        package var amounts: Amounts
        /// What retry is expected to bring back of the open episodes' price at stake (``OpenEpisodes``).
        package var expected: OpenEpisodes.Expected

        package init(currency: String, amounts: Amounts, expected: OpenEpisodes.Expected = .init()) {
            self.currency = currency
            self.amounts = amounts
            self.expected = expected
        }
    }

    /// The figures of one currency; amounts in milliunits, nil when the sum does not fit in 64 bits.
    package struct Amounts: Hashable, Sendable {
        package var recoveredEpisodes = 0
        /// The price of each recovering transaction.
        package var recoveredAmount: Int64? = 0
        /// The price of the recovering transaction of each episode saved in grace.
        package var savedInGraceAmount: Int64? = 0
        package var expiredEpisodes = 0
        /// The price at stake of each expired episode.
        package var lostAmount: Int64? = 0
        package var openEpisodes = 0
        /// The price at stake of each open episode: what retry may still collect.
        package var atRiskAmount: Int64? = 0
        /// Open commitment episodes.
        package var commitmentOpenEpisodes = 0
        /// Σ installments at risk × price at stake over open commitment episodes.
        package var commitmentAmountAtRisk: Int64? = 0
        /// Σ installments at risk × price at stake over expired commitment episodes.
        package var commitmentAmountLost: Int64? = 0

        package init() {}

        /// Every count and amount is 0.
        package var isZero: Bool {
            self == Amounts()
        }
    }

    /// The rows, by currency; currencies with only zeros are left out.
    package static func rows(episodes: [Episode]) -> [Row] {
        var tally = Tally()
        for episode in episodes { tally.add(episode) }
        return tally.rows
    }

    /// The rows' sums, added up one episode at a time.
    package struct Tally: Sendable {
        private var byCurrency: [String: Amounts] = [:]

        package init() {}

        package mutating func add(_ episode: Episode) {
            switch episode.outcome {
            case .recovered:
                var amounts = byCurrency[episode.recoveryCurrency ?? "", default: Amounts()]
                amounts.recoveredEpisodes += 1
                amounts.recoveredAmount = Milliunits.adding(episode.recoveryPrice, to: amounts.recoveredAmount)
                if episode.isSavedInGrace {
                    amounts.savedInGraceAmount = Milliunits.adding(
                        episode.recoveryPrice, to: amounts.savedInGraceAmount)
                }
                byCurrency[episode.recoveryCurrency ?? ""] = amounts
            case .expired:
                var amounts = byCurrency[episode.stakeCurrency ?? "", default: Amounts()]
                amounts.expiredEpisodes += 1
                amounts.lostAmount = Milliunits.adding(episode.stakePrice, to: amounts.lostAmount)
                if episode.billingPlan == .commitment {
                    amounts.commitmentAmountLost = Milliunits.adding(
                        episode.commitmentStake, to: amounts.commitmentAmountLost)
                }
                byCurrency[episode.stakeCurrency ?? ""] = amounts
            case .open:
                var amounts = byCurrency[episode.stakeCurrency ?? "", default: Amounts()]
                amounts.openEpisodes += 1
                amounts.atRiskAmount = Milliunits.adding(episode.stakePrice, to: amounts.atRiskAmount)
                if episode.billingPlan == .commitment {
                    amounts.commitmentOpenEpisodes += 1
                    amounts.commitmentAmountAtRisk = Milliunits.adding(
                        episode.commitmentStake, to: amounts.commitmentAmountAtRisk)
                }
                byCurrency[episode.stakeCurrency ?? ""] = amounts
            case .cancelled, .other:
                break
            }
        }

        /// The rows, by currency; currencies with only zeros are left out.
        package var rows: [Row] {
            byCurrency.filter { !$0.value.isZero }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .map { Row(currency: $0.key, amounts: $0.value) }
        }
    }
}
