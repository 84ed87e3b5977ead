import Analysis
import Foundation

extension SummaryDocument {
    /// Which episodes the rates at a glance count (the mature ones, with the cut-off) and why, how many younger ones
    /// the other figures count too, and whether the rates are final; nil without an episode.
    func maturityNote() -> String? {
        let all = report.all.outcomes
        guard all.episodes > 0 else { return nil }
        let mature = report.all.mature
        let (cutoff, overflow) = report.asOf.subtractingReportingOverflow(Episode.retryHorizon)
        let cutoffText = overflow ? "" : " (on or before \(UTCTime.minute(cutoff)))"
        let younger = all.episodes - mature.episodes
        var text =
            "*Mature* episodes started at least 61 days before the as-of time" + cutoffText + ": their outcome is "
            + "decided, and the rates at a glance count only them, as expiries come only at day 60"
        text +=
            younger == 0
            ? "; every episode of this report is mature."
            : "; the \(HumanFormat.count(younger)) younger " + (younger == 1 ? "one counts" : "ones count")
                + " in every other figure."
        guard mature.episodes > 0 else { return text }
        return text + " " + Self.finalitySentence(report.finalityOfMatureEpisodes)
    }

    /// The share of renewal charges that failed in the latest whole month before the as-of time
    /// (`billing_failures.csv`); nil without such a month holding renewals or failures.
    package func failureShareLine() -> String? {
        guard
            let row = report.figures.billingFailures.last(where: { row in
                guard let month = row.month else { return false }
                return month.end <= report.asOf && row.episodesStarted + row.renewals > 0
            }), let month = row.month
        else { return nil }
        let charges = row.episodesStarted + row.renewals
        return "**Renewals that failed: " + HumanFormat.percent(Double(row.episodesStarted) / Double(charges))
            + "** in \(month) (\(HumanFormat.count(row.episodesStarted)) of \(HumanFormat.count(charges)) renewal "
            + "charges started an episode; `billing_failures.csv` has every month)."
    }

    /// How to read a 95% interval, in one sentence.
    static let intervalReading =
        "A 95% interval comes from a method whose intervals contain the true rate in 95% of samples; the fewer the "
        + "episodes, the wider it is."

    /// Whether the two headline rates are final, and when they will be.
    static func finalitySentence(_ finality: Report.Finality) -> String {
        switch finality {
        case .final:
            "Those rates are final."
        case .maturing(let from), .awaitingLateNotifications(let from):
            "Those rates are not final until " + UTCTime.date(from)
                + ", once 7 days of later notifications can be loaded."
        }
    }

    /// Money per currency, led by what retry is expected to bring back beside what is at risk: then recovered,
    /// saved in grace and lost; the table first, then what its cells are (``moneyTerms``).
    func writeMoney(to writer: inout MarkdownWriter) {
        writer.heading("Money")
        guard !report.money.isEmpty else {
            writer.paragraph("No episode has recovered or expired, and none is open, so there is no money to show.")
            return
        }
        writer.table(
            header: [
                "Currency", "Expected back", "At risk now", "Recovered", "Of which saved in grace", "Lost to expiry",
            ],
            alignments: [.left, .right, .right, .right, .right, .right],
            rows: report.money.map { money in
                let currency = money.currency
                let back = report.expectedBack[currency] ?? OpenEpisodes.Expected()
                return [
                    currency.isEmpty ? "(no currency)" : currency,
                    HumanFormat.amount(HumanFormat.estimate(back.amount, currency: currency), currency: currency) + " ("
                        + String(format: "%.1f", back.recoveries) + ")",
                    Self.amount(money.atRiskMilliunits, currency, episodes: money.openEpisodes),
                    Self.amount(money.recoveredMilliunits, currency, episodes: money.recoveredEpisodes),
                    Self.amount(money.savedInGraceMilliunits, currency, episodes: money.savedInGraceEpisodes),
                    Self.amount(money.lostMilliunits, currency, episodes: money.expiredEpisodes),
                ]
            })
        writer.paragraph(
            "Customer prices before the App Store's commission, per currency (never added together); in brackets, "
                + "how many episodes (under *Expected back*, the expected payers: a sum of chances). " + Self.moneyTerms
                + " Per product or month: `churn query revenue --group-by product` (or `cohort-month`).")
        if let rates = report.options.exchangeRates,
            report.money.contains(where: { $0.openEpisodes > 0 && !$0.currency.isEmpty })
        {
            writer.paragraph(ratesUsed(rates))
        }
    }

    /// The exchange rates the first screen's one figure used, for the currencies of the money table that have one,
    /// and the currencies it has none for.
    private func ratesUsed(_ rates: ExchangeRates) -> String {
        let listed = report.money.map(\.currency).filter { !$0.isEmpty && $0 != rates.target }
        let given = listed.compactMap { currency in rates.rate(of: currency).map { "1 \(currency) = \($0)" } }
        let missing = listed.filter { rates.rate(of: $0) == nil }
        var text = "At a glance, amounts are added up in " + rates.target + " at the rates given (`--exchange-rates`)"
        text += given.isEmpty ? "" : ": " + given.joined(separator: ", ")
        if !missing.isEmpty { text += "; none for " + Self.list(missing) + ", kept apart" }
        return text + "."
    }

    /// `29.97 (3)`: the table's first column names the currency.
    static func amount(_ milliunits: Int64?, _ currency: String, episodes: Int) -> String {
        HumanFormat.amount(milliunits, currency: currency) + " (" + HumanFormat.count(episodes) + ")"
    }
}
