import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// The first screen of `summary.md`, a product manager's two minutes: what retry recovers, what is at stake and
/// expected back, whom to reach, the grace setting, every term in plain words, in at most 350 words before the first
/// table (METRICS-NOTES.md, "What summary.md shows").
@Suite struct FirstScreenTests {
    static let asOf = T.july1

    /// Mature episodes of one app (`com.example.app`, 16-day grace for every renewal) and open ones: 15 in five
    /// currencies (USD 5, EUR 4, BRL 3, JPY 2, GBP 1) and one without a price; the open ones of even index carry an
    /// `appAccountToken`, and four are in their first week of retry.
    static func dataset() -> EpisodeDataset {
        var episodes: [Episode] = []
        // 20 mature episodes from March: 8 paid within the 16-day grace, 4 after it, 8 expired at day 60.
        for index in 0..<20 {
            let start = T.march1 + Int64(index) * T.hour
            let days: Int64? = index < 8 ? Int64(index % 4 + 2) : (index < 12 ? 20 : nil)
            episodes.append(
                Episode(
                    subscription: "M\(index)", productId: "pro.monthly", start: start, hasGrace: true,
                    graceEnd: start + 16 * T.day, end: start + (days ?? 60) * T.day,
                    outcome: days == nil ? .expired : .recovered, recoveryPrice: days == nil ? nil : 9_990,
                    recoveryCurrency: days == nil ? nil : "USD", stakePrice: 9_990, stakeCurrency: "USD",
                    bundleId: "com.example.app", openingNotificationUUID: "m\(index)", periodDays: 30))
        }
        let currencies = [
            "USD", "USD", "USD", "USD", "USD", "EUR", "EUR", "EUR", "EUR", "BRL", "BRL", "BRL", "JPY",
            "JPY", "GBP", "",
        ]
        for (index, currency) in currencies.enumerated() {
            // Days of retry 2, 5, 8, …: the first three and the last … in their first week.
            let age = Int64(index * 3 + 1) * T.day + T.hour
            let start = asOf - age
            episodes.append(
                Episode(
                    subscription: "O\(index)", productId: "pro.monthly", start: start, hasGrace: true,
                    graceEnd: start + 16 * T.day, outcome: .open,
                    stakePrice: currency.isEmpty ? nil : (currency == "JPY" ? 1_500_000 : 9_990),
                    stakeCurrency: currency.isEmpty ? nil : currency, bundleId: "com.example.app",
                    openingNotificationUUID: "o\(index)",
                    appAccountToken: index.isMultiple(of: 2) ? "6F1C3A52-0000-4000-8000-00000000000\(index % 10)" : nil)
            )
        }
        return EpisodeDataset(asOf: asOf, episodes: episodes)
    }

    static func report(latestSignedDate: Int64? = nil) -> Report {
        Report(dataset: dataset(), options: .init(latestSignedDate: latestSignedDate))
    }

    /// The text before the first table.
    static func firstScreen(_ summary: String) -> String {
        summary.components(separatedBy: "\n|").first ?? summary
    }

    static func words(_ text: some StringProtocol) -> Int {
        text.split(whereSeparator: { $0.isWhitespace }).count
    }

    @Test func firstScreenHoldsTheFourAnswersInAtMost350Words() throws {
        for report in [Self.report(), Sample.report(), Lifecycle.report()] {
            let summary = SummaryDocument(report: report).markdown
            let screen = Self.firstScreen(summary)
            #expect(Self.words(screen) <= 350, "\(Self.words(screen)) words before the first table")
            for answer in ["**Retry recovers ", "**At stake now:**", "**Whom to reach:**", "**Billing Grace Period**"] {
                #expect(screen.contains(answer), "\(answer)")
            }
            #expect(screen.contains("In plain words: a *failed renewal* is"))
            #expect(screen.contains("[how to read them](#how-to-read-this-report)"))
        }
    }

    /// Friction (a): the share retry recovers, with its interval and counts, and what expires.
    @Test func recoveryShareLeads() throws {
        let report = Self.report()
        let mature = report.all.mature
        #expect((mature.episodes, mature.recovered, mature.expired) == (20, 12, 8))
        let screen = Self.firstScreen(SummaryDocument(report: report).markdown)
        #expect(
            screen.contains(
                "- **Retry recovers 60.0%** of failed renewals (12 of 20 decided; 95% confidence interval "
                    + "38.7%–78.1%); **40.0% expire unpaid**, the involuntary churn (8; 21.9%–61.3%)."))
    }

    /// Friction (b): without exchange rates, the currencies with the most episodes in retry first, the rest counted,
    /// and how to get one figure; episodes without a price counted apart (with rates: ``ExchangeRatesTests``).
    @Test func stakeNamesTheLargestCurrenciesFirstAndCountsTheRest() throws {
        let report = Self.report()
        func back(_ currency: String) throws -> String {
            let amount = try #require(report.expectedBack[currency]).amount
            return HumanFormat.amount(HumanFormat.estimate(amount, currency: currency), currency: currency)
        }
        let line = try #require(
            Self.firstScreen(SummaryDocument(report: report).markdown).split(separator: "\n")
                .first { $0.hasPrefix("- **At stake now:**") })
        let (usd, eur, brl) = (try back("USD"), try back("EUR"), try back("BRL"))
        var expected = "- **At stake now:** 16 failed renewals in retry, expected to bring back USD \(usd) "
        expected += "of USD 49.95 at risk, EUR \(eur) of 39.96 and BRL \(brl) of 29.97, and more in 2 other currencies "
        expected +=
            "([Money](#money)); one figure needs exchange rates (`--exchange-rates FILE`); 1 has no price known."
        #expect(line == expected)
        #expect(!line.contains("GBP") && !line.contains("JPY"))
    }

    /// Friction (c): how many to reach, how many carry the app's account token and how many do not, where the list
    /// is, which come first (the file's order, newest first, with their chances) and how many still have access.
    @Test func reachSaysWhoCarriesATokenAndWhoComesFirst() throws {
        let report = Self.report()
        let rows = report.openEpisodes
        #expect(rows.count == 16)
        #expect(rows.filter { $0.appAccountToken != nil }.count == 8)
        let firstWeek = rows.filter { $0.dayOfRetry <= 7 }
        let later = rows.filter { $0.dayOfRetry > 7 }
        #expect(firstWeek.map(\.dayOfRetry) == [2, 5])
        // The file lists them newest first: the first week's come first.
        #expect(Array(rows.prefix(firstWeek.count)) == firstWeek)
        let inGrace = rows.filter(\.inGrace).count
        #expect(inGrace == 5)
        let mean = { (rows: [OpenEpisodes.Row]) in rows.reduce(0) { $0 + $1.recoveryChance } / Double(rows.count) }
        let screen = Self.firstScreen(SummaryDocument(report: report).markdown)
        let (early, others) = (HumanFormat.percent(mean(firstWeek)), HumanFormat.percent(mean(later)))
        var expected = "- **Whom to reach:** the 16 customers in `open_episodes.csv`, newest failure first: the 2 in "
        expected += "their first week of retry, with an average \(early) chance of paying by its end (the others "
        expected += "\(others)). 8 carry your app's account id (`appAccountToken`); for 8 the file has only the App "
        expected += "Store's original transaction id. 5 are in grace, with access."
        #expect(screen.contains(expected))
    }

    /// Friction (d): the grace decision in the app's own setting, against the setting that would have kept the most,
    /// with what each keeps and gives and the assumption.
    @Test func graceLineWeighsTheAppsSettings() throws {
        let report = Self.report()
        let totals = report.graceWhatIf.filter { $0.productId == nil && $0.bundleId == "com.example.app" }
        let current = try #require(totals.first { $0.isCurrent })
        let longest = try #require(totals.first { $0.setting.duration == 28 })
        #expect(current.setting.duration == 16)
        func days(_ value: Int64) -> String { String(format: "%.1f", Double(value) / Double(T.day) / 20) }
        // Every price at stake is in USD: the amounts, over all 20 decided episodes, come too.
        func usd(_ amount: Double?) -> String {
            HumanFormat.money(HumanFormat.estimate(amount ?? .nan, currency: "USD"), currency: "USD")
        }
        func kept(_ row: GraceWhatIf.Row) -> String {
            "\(days(row.figures.paidKept)) paid days kept and \(days(row.figures.freeAccess)) free days"
        }
        func inAll(_ row: GraceWhatIf.Row) -> String {
            " (\(usd(row.figures.paidAmountKept)) and \(usd(row.figures.freeAccessAmount)) in all)"
        }
        // 28 days keeps the 4 recoveries of day 20 too.
        #expect(longest.figures.recoveredInGrace == 12 && current.figures.recoveredInGrace == 8)
        let screen = Self.firstScreen(SummaryDocument(report: report).markdown)
        var expected =
            "- **Billing Grace Period** of `com.example.app` (App Store Connect): the data fit 16 days (all renewals "
            + "or paid to paid only): "
            + kept(current) + " per decided failed renewal"
        expected += inAll(current) + ". 28 days (all renewals or paid to paid only) would have kept the most: "
        expected += kept(longest) + inAll(longest) + ", if each payment came on the same day, which a longer grace may "
        expected += "delay ([Another grace setting](#another-grace-setting))."
        #expect(screen.contains(expected), "\(expected)")
    }

    /// Every term of the first screen in plain words: none of the words that needed the documentation.
    @Test func firstScreenSpeaksPlainly() throws {
        for report in [Self.report(), Sample.report()] {
            let screen = Self.firstScreen(SummaryDocument(report: report).markdown)
            for jargon in ["mature", "Kaplan", "expected ones with a decimal", "in brackets"] {
                #expect(!screen.lowercased().contains(jargon.lowercased()), "\(jargon)")
            }
            // The one word of the sections below, defined where it first appears (the list's file name aside).
            let words = screen.replacingOccurrences(of: "`open_episodes.csv`", with: "")
            #expect(words.components(separatedBy: "episode").count == 2)
            #expect(screen.contains("and its billing retry (an *episode*)"))
            #expect(screen.contains("*Decided*: started 61 days ago or more, retry over."))
        }
    }

    /// The example report (`make example-report`: the demo's export) reads in two minutes: at most 350 words before
    /// its first table and 3,000 in all, counted as `wc -w` counts them.
    @Test func theExampleReportReadsInTwoMinutes() throws {
        let url = Repository.root.appendingPathComponent("docs/example-report/summary.md")
        let summary = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(Self.words(Self.firstScreen(summary)) <= 350)
        #expect(Self.words(summary) <= 3_000)
    }
}
