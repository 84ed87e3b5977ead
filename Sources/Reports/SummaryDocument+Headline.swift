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
        writer.bulletList(items)
        let leftOut =
            younger == 0
            ? "Every episode of this report is mature."
            : (younger == 1
                ? "The 1 younger episode is left out of these two rates because its expiry is not known yet: "
                : "The \(HumanFormat.count(younger)) younger episodes are left out of these two rates because "
                    + "their expiries are not known yet: ")
                + "recoveries come early in retry, expiries only at day 60, so counting young episodes would "
                + "overstate recovery. " + (younger == 1 ? "It counts" : "They count") + " in every other section."
        writer.paragraph(
            "*Mature* episodes started at least 61 days before the as-of time\(cutoffText): billing retry lasts at "
                + "most 60 days, so their outcome is decided. " + leftOut + " "
                + Self.finalitySentence(report.finalityOfMatureEpisodes) + " " + Self.intervalReading)
    }

    /// How to read a 95% interval, in one sentence.
    static let intervalReading =
        "A 95% interval comes from a method whose intervals contain the true rate in 95% of samples; the fewer the "
        + "episodes, the wider it is."

    /// Whether the two headline rates are final, and when they will be.
    static func finalitySentence(_ finality: Report.Finality) -> String {
        switch finality {
        case .final:
            "These rates are final: the data hold 7 days of notifications signed after the as-of time, so none "
                + "signed by then can still arrive."
        case .maturing(let from), .awaitingLateNotifications(let from):
            "These rates are not final yet: notifications signed in the 7 days before the as-of time may still "
                + "arrive, and one can still turn an expiry inferred at day 60 into a recovery. They are final on "
                + UTCTime.date(from) + ", when 7 days of notifications signed after the as-of time can be loaded."
        }
    }

    /// Money per currency, led by what retry is expected to bring back beside what is at risk: then recovered,
    /// saved in grace and lost.
    func writeMoney(to writer: inout MarkdownWriter) {
        writer.heading("Money")
        guard !report.money.isEmpty else {
            writer.paragraph("No episode has recovered or expired, and none is open, so there is no money to show.")
            return
        }
        if let expected = expectedOfAtRisk() {
            let open = report.money.reduce(0) { $0 + $1.openEpisodes }
            writer.paragraph(
                "**Expected back from retry: " + expected + " at risk now.** Each of the "
                    + HumanFormat.count(open) + " episodes still in retry is "
                    + "weighed by its chance of recovering by day 60, the share of the episodes this long in retry "
                    + "that this report's own history saw recover (`open_episodes.csv` lists them, with each "
                    + "customer's `appAccountToken`): an estimate from past episodes, not a promise.")
        }
        writer.paragraph(
            "Customer prices before the App Store's commission, per currency (currencies are never added together), "
                + "over every episode of the report, young ones included. Each cell gives the amount and, in "
                + "brackets, the number of episodes (expected ones with a decimal).")
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
        writer.bulletList([
            "*Expected back*: the price at stake of each episode still in retry times its chance of recovering by "
                + "day 60 (`recovery_chance`), summed; in brackets, the chances summed: the recoveries expected.",
            "*Recovered*: the price of the transaction that ended each recovered episode, one billing period "
                + "each (not the subscriber's lifetime value).",
            "*Saved in grace*: the part of it collected inside a grace period, while the subscriber kept access.",
            "*Lost to expiry*: the price of the failed renewal of each expired episode.",
            "*At risk now*: the price of the failed renewal of each episode still in retry: what retry may still "
                + "collect.",
        ])
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
