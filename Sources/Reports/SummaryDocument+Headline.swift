import Analysis
import Foundation

extension SummaryDocument {
    /// The headline: recovery and involuntary churn over mature episodes, each with its interval and counts.
    func writeHeadline(to writer: inout MarkdownWriter) {
        let all = report.all.outcomes
        let mature = report.all.mature
        let (cutoff, overflow) = report.asOf.subtractingReportingOverflow(Episode.retryHorizon)
        let cutoffText = overflow ? "" : " (on or before \(UTCTime.minute(cutoff)))"
        writer.heading("Headline")
        let younger = all.episodes - mature.episodes
        guard all.episodes > 0 else {
            writer.paragraph(
                "No episode: no renewal of the \(environment) environment failed by the as-of time in the "
                    + "notifications loaded, so there is no recovery rate or involuntary churn to give.")
            return
        }
        guard mature.episodes > 0 else {
            writer.paragraph(
                "No episode is mature yet: none started 61 days or more before the as-of time\(cutoffText), so the "
                    + "recovery rate and involuntary churn cannot be given yet. Billing retry lasts up to 60 days, "
                    + "and until it is over an episode's expiry is not known. The \(Self.episodes(all.episodes)) so "
                    + "far (\(HumanFormat.count(all.open)) still in retry) are in the sections below.")
            return
        }
        var items = [
            "**Recovered: \(HumanFormat.percent(mature.recoveryRate))** of mature episodes "
                + "(\(HumanFormat.count(mature.recovered)) of \(HumanFormat.count(mature.episodes)); 95% interval "
                + "\(HumanFormat.percentInterval(mature.recoveryRateInterval))). The App Store collected the payment, "
                + "or the subscriber bought again.",
            "**Involuntary churn: \(HumanFormat.percent(mature.expiredRate))** of mature episodes "
                + "(\(HumanFormat.count(mature.expired)) of \(HumanFormat.count(mature.episodes)); 95% interval "
                + "\(HumanFormat.percentInterval(mature.expiredRateInterval))). Billing retry ended without a "
                + "payment and the subscription expired.",
        ]
        let rest = mature.episodes - mature.recovered - mature.expired
        if rest > 0 {
            items.append(
                "The other \(HumanFormat.count(rest)) mature " + (rest == 1 ? "episode" : "episodes")
                    + " ended otherwise: the subscriber turned off renewal during retry, or a refund or revocation "
                    + "ended it.")
        }
        if let returns = returnsHeadlineLine() { items.append(returns) }
        if let failures = failureShareLine() { items.append(failures) }
        writer.bulletList(items)
        let leftOut =
            younger == 0
            ? "every episode of this report is mature."
            : "the \(HumanFormat.count(younger)) younger " + (younger == 1 ? "one counts" : "ones count")
                + " in every other section."
        writer.paragraph(
            "*Mature* episodes started at least 61 days before the as-of time\(cutoffText), so their outcome is "
                + "decided; " + leftOut + " " + Self.finalitySentence(report.finalityOfMatureEpisodes))
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
            "These rates are final."
        case .maturing(let from), .awaitingLateNotifications(let from):
            "These rates are not final until " + UTCTime.date(from)
                + ", once 7 days of later notifications can be loaded."
        }
    }

    /// Money per currency, led by what retry is expected to bring back beside what is at risk: then recovered,
    /// saved in grace and lost (the terms are in ``moneyTerms``).
    func writeMoney(to writer: inout MarkdownWriter) {
        writer.heading("Money")
        guard !report.money.isEmpty else {
            writer.paragraph("No episode has recovered or expired, and none is open, so there is no money to show.")
            return
        }
        // The amounts themselves lead "What to decide"; here, what they are.
        if expectedOfAtRisk() != nil {
            let open = report.money.reduce(0) { $0 + $1.openEpisodes }
            writer.paragraph(
                "*Expected back* weighs each of the " + HumanFormat.count(open)
                    + " episodes still in retry by its chance of recovering by day 60: an estimate from this app's "
                    + "past episodes, not a promise.")
        }
        writer.paragraph(
            "Customer prices before the App Store's commission, per currency (never added together), over every "
                + "episode; in brackets, episodes (expected ones with a decimal). "
                + "[How to read this report](#how-to-read-this-report) defines each column.")
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
                    HumanFormat.amount(Self.milliunits(back.amount)) + " ("
                        + String(format: "%.1f", back.recoveries) + ")",
                    Self.amount(money.atRiskMilliunits, currency, episodes: money.openEpisodes),
                    Self.amount(money.recoveredMilliunits, currency, episodes: money.recoveredEpisodes),
                    Self.amount(money.savedInGraceMilliunits, currency, episodes: money.savedInGraceEpisodes),
                    Self.amount(money.lostMilliunits, currency, episodes: money.expiredEpisodes),
                ]
            })
        writer.paragraph(
            "By product or by month of the failure: `churn query revenue --group-by product` (or `cohort-month`).")
    }

    /// `USD 63.43 of 443.41; EUR …`: per currency with open episodes, what retry is expected to bring back of the
    /// price at stake; nil when no episode is open.
    func expectedOfAtRisk() -> String? {
        let open = report.money.filter { $0.openEpisodes > 0 }
        guard !open.isEmpty else { return nil }
        return open.map { money in
            let back = report.expectedBack[money.currency] ?? OpenEpisodes.Expected()
            return HumanFormat.money(Self.milliunits(back.amount), currency: money.currency) + " of "
                + HumanFormat.amount(money.atRiskMilliunits)
        }.joined(separator: "; ")
    }

    /// An estimated amount in currency units as milliunits, rounded to the cent: an estimate shows no more.
    static func milliunits(_ amount: Double) -> Int64 {
        guard amount.isFinite, abs(amount) < 9e15 else { return 0 }
        return Int64((amount * 100).rounded()) * 10
    }

    /// `29.97 (3)`: the table's first column names the currency.
    static func amount(_ milliunits: Int64?, _ currency: String, episodes: Int) -> String {
        HumanFormat.amount(milliunits) + " (" + HumanFormat.count(episodes) + ")"
    }
}
