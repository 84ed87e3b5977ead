import Analysis
import Foundation
import Reports
import TestSupport
import Testing

/// `--exchange-rates FILE`: the user's rates, read exactly, refused with the line and the reason, and used only to
/// state what is at stake as one figure at a glance.
@Suite struct ExchangeRatesTests {
    @Test func readsTheDocumentedFormat() throws {
        let text =
            "\u{FEFF}# rates of 2025-12-31, from our finance team\r\n\r\ncurrency,rate_to_USD\r\n EUR , 1.08\r\n"
            + "JPY,0.0067\r\nUSD,1\r\n# the end\r\n"
        let rates = try ExchangeRates.parse(text, path: "rates.csv")
        #expect(rates.target == "USD")
        #expect(rates.rates == ["EUR": Decimal(string: "1.08"), "JPY": Decimal(string: "0.0067")])
        #expect(rates.rate(of: "USD") == 1)
        #expect(rates.rate(of: "GBP") == nil)
        // Decimals, read and multiplied exactly; rounded to the cent once (half away from zero).
        #expect(rates.converted(Decimal(string: "10.99") ?? 0, from: "EUR") == Decimal(string: "11.8692"))
        #expect(ExchangeRates.milliunits(Decimal(string: "11.8692") ?? 0, currency: "USD") == 11_870)
        #expect(ExchangeRates.milliunits(Decimal(string: "0.005") ?? 0, currency: "USD") == 10)
        #expect(ExchangeRates.milliunits(Decimal(string: "1e30") ?? 0, currency: "USD") == nil)
        // To the target's minor unit: the whole yen.
        #expect(ExchangeRates.milliunits(Decimal(string: "1721.5") ?? 0, currency: "JPY") == 1_722_000)
    }

    @Test(arguments: [
        // (file, line, what the reason says)
        ("EUR,1.08\n", 1, "expected the header \"currency,rate_to_<CODE>\""),
        ("currency,rate_to_usd\nEUR,1.08\n", 1, "expected the header"),
        ("currency,rate_to_USD\nEUR;1.08\n", 2, "expected \"<CODE>,<rate>\" such as \"EUR,1.08\", found \"EUR;1.08\""),
        ("currency,rate_to_USD\n# comment\nEUR,1,08\n", 3, "found \"EUR,1,08\""),
        ("currency,rate_to_USD\neur,1.08\n", 2, "\"eur\" is not a currency code: three capital letters"),
        ("currency,rate_to_USD\nEURO,1.08\n", 2, "\"EURO\" is not a currency code"),
        ("currency,rate_to_USD\nEUR,abc\n", 2, "\"abc\" is not a rate: a decimal number above 0"),
        ("currency,rate_to_USD\nEUR,-1.08\n", 2, "\"-1.08\" is not a rate"),
        ("currency,rate_to_USD\nEUR,1e3\n", 2, "\"1e3\" is not a rate"),
        ("currency,rate_to_USD\nEUR,0\n", 2, "\"0\" is not a rate"),
        ("currency,rate_to_USD\nEUR,\n", 2, "\"\" is not a rate"),
        ("currency,rate_to_USD\nEUR,1.08\nGBP,1.27\nEUR,1.09\n", 4, "EUR has a rate already (line 2)"),
        ("currency,rate_to_USD\nUSD,0.9\n", 2, "USD is the currency converted to: its rate is 1, not 0.9"),
    ])
    func refusesWithTheLineAndTheReason(text: String, line: Int, reason: String) throws {
        let error = try #require(throws: ReportsError.self) { try ExchangeRates.parse(text, path: "rates.csv") }
        #expect(error.line == line)
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect("\(error)".hasPrefix("reading the exchange rates: rates.csv, line \(line): "), "\(error)")
    }

    @Test(arguments: ["", "# only a comment\n\n", "currency,rate_to_USD\n", "currency,rate_to_USD\nUSD,1\n"])
    func refusesAFileWithoutARate(text: String) throws {
        let error = try #require(throws: ReportsError.self) { try ExchangeRates.parse(text, path: "rates.csv") }
        #expect(error.line == nil)
        #expect("\(error)".hasPrefix("reading the exchange rates: rates.csv: no "), "\(error)")
    }

    /// At a glance, one figure of what is at stake and one of what retry is expected to bring back, in the target
    /// currency; the currency without a rate named apart in its own units; the rates listed under the money.
    @Test func summaryStatesWhatIsAtStakeAsOneFigure() throws {
        let rates = ExchangeRates(
            target: "EUR",
            rates: ["USD": try #require(Decimal(string: "0.9")), "BRL": try #require(Decimal(string: "0.17"))])
        let dataset = FirstScreenTests.dataset()
        let report = Report(dataset: dataset, options: .init(exchangeRates: rates))
        let money = Dictionary(uniqueKeysWithValues: report.money.map { ($0.currency, $0) })
        // At risk, added exactly, then rounded to the cent: USD 49.95 × 0.9 + EUR 39.96 + BRL 29.97 × 0.17.
        let atRisk =
            try #require(Decimal(string: "44.955")) + (try #require(Decimal(string: "39.96")))
            + (try #require(Decimal(string: "5.0949")))
        #expect(money["USD"]?.atRiskMilliunits == 49_950 && money["BRL"]?.atRiskMilliunits == 29_970)
        var back = Decimal(0)
        for (currency, rate) in [("USD", "0.9"), ("EUR", "1"), ("BRL", "0.17")] {
            let amount = try #require(report.expectedBack[currency]).amount
            back += Decimal(amount) * (try #require(Decimal(string: rate)))
        }
        let figure = HumanFormat.money(ExchangeRates.milliunits(atRisk, currency: "EUR"), currency: "EUR")
        #expect(figure == "EUR 90.01")
        let expected = HumanFormat.money(ExchangeRates.milliunits(back, currency: "EUR"), currency: "EUR")
        let jpy = Self.back(report, "JPY")
        #expect(!jpy.contains("."), "the whole yen: \(jpy)")
        let summary = SummaryDocument(report: report).markdown
        let line = try #require(summary.split(separator: "\n").first { $0.hasPrefix("- **At stake now:**") })
        #expect(
            line
                == "- **At stake now:** 16 failed renewals in retry: **\(figure)** at risk, of which retry is expected "
                + "to bring back **\(expected)** (3 currencies at the rates given, under [Money](#money)); without a "
                + "rate, JPY \(jpy) of JPY 3,000 at risk and GBP \(Self.back(report, "GBP")) of 9.99; 1 has no "
                + "price known.")
        #expect(
            summary.contains(
                "At a glance, amounts are added up in EUR at the rates given (`--exchange-rates`): 1 BRL = 0.17, "
                    + "1 USD = 0.9; none for GBP and JPY, kept apart."))
        // The rates change the summary only.
        let without = Report(dataset: dataset)
        let files = try report.files()
        for (file, plain) in zip(files, try without.files()) where file.name != Report.summaryFileName {
            #expect(file == plain, "\(file.name)")
        }
        #expect(!SummaryDocument(report: without).markdown.contains("rates given"))
    }

    /// What retry is expected to bring back in `currency`, to its minor unit, without the code.
    static func back(_ report: Report, _ currency: String) -> String {
        let amount = report.expectedBack[currency]?.amount ?? .nan
        return HumanFormat.amount(HumanFormat.estimate(amount, currency: currency), currency: currency)
    }
}
