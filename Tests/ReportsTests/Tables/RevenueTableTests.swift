import Analysis
import Reports
import TestSupport
import Testing

@Suite struct RevenueTableTests {
    let t0 = T.april1

    /// Recoveries under the recovering transaction's currency; expired and open episodes under the currency of
    /// the price at stake; cancelled and other in no column.
    var episodes: [Episode] {
        [
            // USD recovered without grace: 9.990.
            episode(
                "R1", start: t0, .recovered, after: T.day, price: 9990, currency: "USD", stake: 9990,
                stakeCurrency: "USD"),
            // EUR saved in grace: recovered and saved 4.990.
            episode(
                "R2", start: t0, .recovered, after: T.day, grace: t0 + 3 * T.day, price: 4990, currency: "EUR",
                stake: 4990, stakeCurrency: "EUR"),
            // USD recovered after grace: recovered 9.990, not saved.
            episode(
                "R3", start: t0, .recovered, after: 5 * T.day, grace: t0 + 3 * T.day, price: 9990, currency: "USD",
                stake: 9990, stakeCurrency: "USD"),
            // Recovered in EUR without a price, though the stake was in USD: an EUR recovery adding 0.
            episode("R4", start: t0, .recovered, after: T.day, currency: "EUR", stake: 9990, stakeCurrency: "USD"),
            // USD expired: lost 9.990.
            episode("X1", start: t0, .expired, after: 60 * T.day, stake: 9990, stakeCurrency: "USD"),
            // Expired without a price at stake or a currency: the empty currency, lost 0.
            episode("X2", start: t0, .expired, after: 60 * T.day),
            // JPY open: at risk 120.000.
            episode("O1", start: t0, .open, stake: 120_000, stakeCurrency: "JPY"),
            // Cancelled and other: no column, so GBP has no row.
            episode("C1", start: t0, .cancelled, after: T.day, stake: 1000, stakeCurrency: "GBP"),
            episode("Z1", start: t0, .other, after: T.day, stake: 1000, stakeCurrency: "GBP"),
        ]
    }

    // ""  : expired X2 (0)                                   → ,0,0.000,0.000,1,0.000,0,0.000
    // EUR : recovered R2 4990 + R4 0 = 4.990, saved R2 4.990 → EUR,2,4.990,4.990,0,0.000,0,0.000
    // JPY : open O1 120000 = 120.000                         → JPY,0,0.000,0.000,0,0.000,1,120.000
    // USD : recovered R1 + R3 = 19.980, saved 0; expired X1 9.990 → USD,2,19.980,0.000,1,9.990,0,0.000
    @Test func amountsPerCurrencyByHand() {
        let table = Revenue.table(Revenue.rows(episodes: episodes.shuffled()))
        #expect(table.name == "revenue.csv")
        #expect(
            table.columns == [
                "currency", "recovered_episodes", "recovered_amount", "saved_in_grace_amount", "expired_episodes",
                "lost_amount", "open_episodes", "at_risk_amount", "expected_recoveries", "expected_recovered_amount",
                "commitment_open_episodes", "commitment_amount_at_risk", "commitment_amount_lost",
            ])
        #expect(
            lines(table) == [
                ",0,0.000,0.000,1,0.000,0,0.000,0.000000,0.000,0,0.000,0.000",
                "EUR,2,4.990,4.990,0,0.000,0,0.000,0.000000,0.000,0,0.000,0.000",
                "JPY,0,0.000,0.000,0,0.000,1,120.000,0.000000,0.000,0,0.000,0.000",
                "USD,2,19.980,0.000,1,9.990,0,0.000,0.000000,0.000,0,0.000,0.000",
            ])
    }

    @Test func anAmountThatOverflowsIsEmpty() {
        let huge = Int64.max / 2 + 1
        let open = (1...2).map { episode("O\($0)", start: t0, .open, stake: huge, stakeCurrency: "USD") }
        #expect(
            lines(Revenue.table(Revenue.rows(episodes: open))) == [
                "USD,0,0.000,0.000,0,0.000,2,,0.000000,0.000,0,0.000,0.000"
            ])
    }

    @Test func noRowWithoutAnAmountOrEpisode() {
        #expect(Revenue.table(Revenue.rows(episodes: [])).rows.isEmpty)
        #expect(Revenue.table(Revenue.rows(episodes: [episode("C", start: t0, .cancelled, after: T.day)])).rows.isEmpty)
    }
}
