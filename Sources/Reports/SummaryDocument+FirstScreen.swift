import Analysis
import Foundation

extension SummaryDocument {
    /// The first screen names at most this many currencies without exchange rates, those with the most episodes in
    /// retry; the others are counted.
    static let namedCurrencies = 3
    /// The last retry day of an open episode's first week (`day_of_retry` 1…7): the newest failures, first in
    /// `open_episodes.csv`.
    static let firstWeek = 7

    /// The first screen, a product manager's two minutes: the share retry recovers and what expires, what is at stake
    /// now and what retry is expected to bring back, whom to reach, the grace setting, and the terms in plain words
    /// (METRICS-NOTES.md, "What summary.md shows").
    func writeAtAGlance(to writer: inout MarkdownWriter) {
        writer.heading("At a glance")
        guard report.all.outcomes.episodes > 0 else {
            writer.paragraph(
                "No episode: no renewal of the \(environment) environment failed by the as-of time in the "
                    + "notifications loaded, so there is no recovery, churn or money to show.")
            return
        }
        writer.bulletList([recoveryLine(), stakeLine(), reachLine(), graceLine()])
        writer.paragraph(Self.plainTerms)
    }

    /// The terms of the first screen in plain words, and where the statistics are explained.
    static let plainTerms =
        "In plain words: a *failed renewal* is a charge the App Store could not collect; it retries for up to 60 "
        + "days (90 under a 12-month commitment). *Decided*: started 61 days ago or more, retry over. *Paid days "
        + "kept*: days paid for as the payment came within grace; *free days*: grace for customers unpaid by its end. "
        + "Chances and intervals are estimates: [how to read them](#how-to-read-this-report)."

    /// The share of decided episodes retry recovered and the share that expired, each with its 95% interval and
    /// counts; without a decided episode, why there is no share yet.
    func recoveryLine() -> String {
        let mature = report.all.mature
        guard mature.episodes > 0 else {
            return "**Recovery:** no failed renewal is decided yet: none started 61 days or more before the as-of "
                + "time, so the share retry recovers is not known; " + Self.episodes(report.all.outcomes.episodes)
                + " so far, " + HumanFormat.count(report.all.outcomes.open) + " still in retry."
        }
        var text =
            "**Retry recovers " + HumanFormat.percent(mature.recoveryRate) + "** of failed renewals ("
            + HumanFormat.count(mature.recovered) + " of " + HumanFormat.count(mature.episodes)
            + " decided; 95% confidence interval " + HumanFormat.percentInterval(mature.recoveryRateInterval)
            + "); **" + HumanFormat.percent(mature.expiredRate) + " expire unpaid**, the involuntary churn ("
            + HumanFormat.count(mature.expired) + "; " + HumanFormat.percentInterval(mature.expiredRateInterval) + ")"
        let rest = mature.episodes - mature.recovered - mature.expired
        if rest > 0 {
            text += "; " + HumanFormat.count(rest) + " ended otherwise (renewal turned off, a refund)"
        }
        return text + "."
    }

    /// What is at stake in the episodes still in retry and what retry is expected to bring back of it: one figure at
    /// the user's exchange rates, else per currency, the currencies with the most episodes in retry first and the
    /// rest counted; episodes without a price at stake, and currencies without a rate, apart.
    func stakeLine() -> String {
        let open = report.money.filter { $0.openEpisodes > 0 }
        guard !open.isEmpty else { return "**At stake now:** nothing: no failed renewal is in retry." }
        let episodes = open.reduce(0) { $0 + $1.openEpisodes }
        var text = "**At stake now:** " + Self.failedRenewals(episodes) + " in retry"
        let priced = open.filter { !$0.currency.isEmpty }
        let unpriced = episodes - priced.reduce(0) { $0 + $1.openEpisodes }
        guard !priced.isEmpty else { return text + ", with no price known." }
        if let rates = report.options.exchangeRates {
            text += oneFigure(priced, rates)
        } else {
            text += ", expected to bring back " + Self.list(perCurrency(Self.largestFirst(priced)))
            text += Self.moreCurrencies(priced.count) + " ([Money](#money))"
            if priced.count > 1 { text += "; one figure needs exchange rates (`--exchange-rates FILE`)" }
        }
        if unpriced > 0 {
            text += "; " + HumanFormat.count(unpriced) + (unpriced == 1 ? " has" : " have") + " no price known"
        }
        return text + "."
    }

    /// `USD 65.61 of USD 448.41 at risk`, `EUR 62.51 of 327.78`, …: what retry is expected to bring back of the price
    /// at stake, for the first ``namedCurrencies`` of `money`.
    private func perCurrency(_ money: [Headline.Money]) -> [String] {
        money.prefix(Self.namedCurrencies).enumerated().map { index, money in
            let back = report.expectedBack[money.currency] ?? OpenEpisodes.Expected()
            return money.currency + " "
                + HumanFormat.amount(
                    HumanFormat.estimate(back.amount, currency: money.currency), currency: money.currency)
                + " of " + (index == 0 ? money.currency + " " : "")
                + HumanFormat.amount(money.atRiskMilliunits, currency: money.currency)
                + (index == 0 ? " at risk" : "")
        }
    }

    /// `: USD 1,234.56 at risk, of which retry is expected to bring back USD 270.12 (…)`: the price at stake and the
    /// expected amount of the currencies `rates` has a rate for, added up in its target currency, each rounded to
    /// the cent once added; the currencies without a rate named apart, in their own units.
    private func oneFigure(_ priced: [Headline.Money], _ rates: ExchangeRates) -> String {
        let converted = priced.filter { rates.rate(of: $0.currency) != nil }
        let missing = Self.largestFirst(priced.filter { rates.rate(of: $0.currency) == nil })
        var text = ""
        if !converted.isEmpty {
            var atRisk: Decimal? = 0
            var back: Decimal = 0
            for money in converted {
                let expected = report.expectedBack[money.currency]?.amount ?? 0
                back += rates.converted(Decimal(expected.isFinite ? expected : 0), from: money.currency) ?? 0
                if let sum = atRisk, let milliunits = money.atRiskMilliunits {
                    atRisk = sum + (rates.converted(Decimal(milliunits) / 1000, from: money.currency) ?? 0)
                } else {
                    atRisk = nil
                }
            }
            text +=
                ": **"
                + HumanFormat.money(
                    atRisk.flatMap { ExchangeRates.milliunits($0, currency: rates.target) }, currency: rates.target)
                + "** at risk, of which retry is expected to bring back **"
                + HumanFormat.money(ExchangeRates.milliunits(back, currency: rates.target), currency: rates.target)
                + "** ("
                + (converted.count == 1
                    ? "[Money](#money)"
                    : HumanFormat.count(converted.count) + " currencies at the rates given, under [Money](#money)")
                + ")"
        }
        if !missing.isEmpty {
            text +=
                (converted.isEmpty ? ", expected to bring back " : "; without a rate, ")
                + Self.list(perCurrency(missing)) + Self.moreCurrencies(missing.count)
        }
        return text
    }

    /// `, and more in 4 other currencies`: the currencies of `count` that ``perCurrency(_:)`` does not name; empty
    /// when it names them all.
    static func moreCurrencies(_ count: Int) -> String {
        let rest = count - min(count, namedCurrencies)
        guard rest > 0 else { return "" }
        return ", and more in " + HumanFormat.count(rest) + (rest == 1 ? " other currency" : " other currencies")
    }

    /// Rows of `revenue.csv` with the most episodes in retry first (ties in UTF-8 byte order of the currency):
    /// amounts of different currencies do not compare, episodes do.
    static func largestFirst(_ money: [Headline.Money]) -> [Headline.Money] {
        money.sorted {
            $0.openEpisodes != $1.openEpisodes
                ? $0.openEpisodes > $1.openEpisodes : $0.currency.utf8.lexicographicallyPrecedes($1.currency.utf8)
        }
    }

    /// Whom to reach: how many, where the list is and which come first, how many carry the app's account token, and
    /// how many still have access.
    func reachLine() -> String {
        let rows = report.openEpisodes
        guard !rows.isEmpty else { return "**Whom to reach:** no customer is in billing retry now." }
        var text =
            "**Whom to reach:** the " + HumanFormat.count(rows.count) + (rows.count == 1 ? " customer" : " customers")
            + " in `\(OpenEpisodes.fileName)`, newest failure first"
        let firstWeek = rows.filter { $0.dayOfRetry <= Self.firstWeek }
        let later = rows.filter { $0.dayOfRetry > Self.firstWeek }
        if firstWeek.isEmpty || later.isEmpty {
            text +=
                ", with an average " + HumanFormat.percent(Self.meanChance(rows)) + " chance of paying by the "
                + "end of retry"
        } else {
            text +=
                ": the " + HumanFormat.count(firstWeek.count) + " in their first week of retry, with an average "
                + HumanFormat.percent(Self.meanChance(firstWeek)) + " chance of paying by its end (the others "
                + HumanFormat.percent(Self.meanChance(later)) + ")"
        }
        let tokens = rows.filter { $0.appAccountToken != nil }.count
        let only = "the App Store's original transaction id"
        switch tokens {
        case rows.count: text += ". All carry your app's account id (`appAccountToken`)"
        case 0: text += ". None carries your app's account id (`appAccountToken`): the file has only " + only
        default:
            text +=
                ". " + HumanFormat.count(tokens) + " carry your app's account id (`appAccountToken`); for "
                + HumanFormat.count(rows.count - tokens) + " the file has only " + only
        }
        let inGrace = rows.filter(\.inGrace).count
        if inGrace > 0 { text += ". " + HumanFormat.count(inGrace) + " are in grace, with access" }
        return text + "."
    }

    /// `3 failed renewals`, `1 failed renewal`.
    static func failedRenewals(_ count: Int) -> String {
        HumanFormat.count(count) + (count == 1 ? " failed renewal" : " failed renewals")
    }

    /// The mean recovery chance of `rows`; nil for none.
    static func meanChance(_ rows: [OpenEpisodes.Row]) -> Double? {
        rows.isEmpty ? nil : rows.reduce(0) { $0 + $1.recoveryChance } / Double(rows.count)
    }
}
