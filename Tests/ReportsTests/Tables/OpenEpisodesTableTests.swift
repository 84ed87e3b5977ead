import Analysis
import Reports
import TestSupport
import Testing

/// `open_episodes.csv` and the expected columns of `revenue.csv` (METRICS.md v2.1, "What retry is still expected
/// to bring back"), from a small curve worked out by hand.
@Suite struct OpenEpisodesTableTests {
    let t0 = T.april1

    /// Four ended episodes and three open ones; the as-of time is 20 days after `t0`.
    ///
    /// Durations (days): 2 recovered, 3 open (O1), 5 cancelled, 10 recovered, 20 open (O2), 20 open (O3), 60 expired.
    /// Aalen–Johansen, n the episodes of duration ≥ t:
    ///   t = 2:  n = 7, 1 recovered  → CIF = 1/7,                      S = 6/7
    ///   t = 5:  n = 5, 1 cancelled  → CIF = 1/7,                      S = 6/7 · 4/5 = 24/35
    ///   t = 10: n = 4, 1 recovered  → CIF = 1/7 + 24/35 · 1/4 = 11/35, S = 24/35 · 3/4 = 18/35
    ///   t = 60: n = 1, 1 expired    → CIF = 11/35,                    S = 0
    /// CIF(60 d) = 11/35.
    /// O1 (u = 3 d): the step at 2 → (11/35 − 1/7) / (6/7) = (6/35) · (7/6) = 1/5 = 0.2.
    /// O2, O3 (u = 20 d): the step at 10 → (11/35 − 11/35) / (18/35) = 0.
    var dataset: EpisodeDataset {
        let asOf = t0 + 20 * T.day
        var o1 = episode("O1", start: asOf - 3 * T.day, .open, grace: asOf + T.day, stake: 9990, stakeCurrency: "USD")
        // As Swift's `UUID().uuidString` writes it: the list writes it in lower case.
        o1.appAccountToken = "6F1C0E61-2B47-4A43-9B9A-9C6D6A7C1E01"
        o1.storefront = "USA"
        return EpisodeDataset(
            asOf: asOf,
            episodes: [
                episode("R1", start: t0, .recovered, after: 2 * T.day, price: 9990, currency: "USD"),
                o1,
                episode("C1", start: t0, .cancelled, after: 5 * T.day),
                episode("R2", start: t0, .recovered, after: 10 * T.day, price: 9990, currency: "USD"),
                episode("O2", start: t0, .open, grace: t0 + 6 * T.day, stake: 4990, stakeCurrency: "EUR"),
                episode("O3", start: t0, .open, stake: 9990, stakeCurrency: "USD"),
                episode("X1", start: t0 - 40 * T.day, .expired, after: 60 * T.day, stake: 9990, stakeCurrency: "USD"),
            ])
    }

    @Test func recoveryChanceFromTheCurveByHand() {
        let report = ChurnReport(dataset)
        // Newest first: O1 (April 18), then O2 and O3 (April 1) by id.
        #expect(report.openEpisodes.map(\.subscription) == ["O1", "O2", "O3"])
        #expect(abs((report.openEpisodes.first?.recoveryChance ?? 0) - 0.2) < 1e-12)
        #expect(report.openEpisodes.suffix(2).map(\.recoveryChance) == [0, 0])

        let table = OpenEpisodes.table(report.openEpisodes)
        #expect(table.name == "open_episodes.csv")
        #expect(
            table.columns == [
                "original_transaction_id", "app_account_token", "product_id", "storefront", "t0", "day_of_retry",
                "grace_end", "in_grace", "stake_price", "stake_currency", "recovery_chance", "billing_plan",
                "installments_at_risk",
            ])
        // O2: 20 days in retry (day 21), its grace over; O1: 3 days in retry (day 4), in grace until a day after T.
        #expect(
            lines(table) == [
                "O1,6f1c0e61-2b47-4a43-9b9a-9c6d6a7c1e01,monthly,USA,2024-04-18T00:00:00.000Z,4,"
                    + "2024-04-22T00:00:00.000Z,true,9.990,USD,0.200000,standard,1",
                "O2,,monthly,,2024-04-01T00:00:00.000Z,21,2024-04-07T00:00:00.000Z,false,4.990,EUR,0.000000,standard,1",
                "O3,,monthly,,2024-04-01T00:00:00.000Z,21,,false,9.990,USD,0.000000,standard,1",
            ])
    }

    /// USD: O1 0.2 × 9.990 = 1.998 and O3 0 → expected 0.2 recoveries, 1.998; EUR: O2 0 → 0 and 0.000.
    @Test func revenueLeadsWithWhatIsExpectedBack() {
        let revenue = Revenue.table(ChurnReport(dataset).revenue)
        #expect(
            revenue.columns.dropLast(3).suffix(3) == [
                "at_risk_amount", "expected_recoveries", "expected_recovered_amount",
            ])
        #expect(
            lines(revenue) == [
                "EUR,0,0.000,0.000,0,0.000,1,4.990,0.000000,0.000,0,0.000,0.000",
                "USD,2,19.980,0.000,1,9.990,2,19.980,0.200000,1.998,0,0.000,0.000",
            ])
    }

    /// `churn query open-episodes`: filters, and each order with its ties in t0 order.
    @Test func selectionFiltersAndOrders() {
        func row(_ id: String, day: Int, chance: Double, stake: Int64, _ currency: String, inGrace: Bool)
            -> OpenEpisodes.Row
        {
            OpenEpisodes.Row(
                subscription: id, appAccountToken: nil, productId: nil, storefront: nil, start: Int64(60 - day) * T.day,
                dayOfRetry: day, graceEnd: nil, inGrace: inGrace, stakePrice: stake, stakeCurrency: currency,
                recoveryChance: chance)
        }
        // Newest first, as the list comes (the shortest in retry first). Expected amounts: A 0.5, B 2.5, C 1.0, D 50,
        // E 2.5.
        let rows = [
            row("E", day: 3, chance: 0.25, stake: 9990, "USD", inGrace: true),
            row("D", day: 5, chance: 0.5, stake: 99_990, "USD", inGrace: true),
            row("C", day: 20, chance: 0.1, stake: 9990, "EUR", inGrace: false),
            row("B", day: 30, chance: 0.25, stake: 9990, "USD", inGrace: false),
            row("A", day: 40, chance: 0.05, stake: 9990, "USD", inGrace: false),
        ]
        func ids(_ selection: OpenEpisodes.Selection) -> [String] { selection.apply(rows).map(\.subscription) }
        // Ties (E and B: 2.5 expected, 0.25 chance) keep the list's order: the newer first.
        #expect(ids(.init()) == ["C", "D", "E", "B", "A"])
        #expect(ids(.init(order: .chance)) == ["D", "E", "B", "C", "A"])
        #expect(ids(.init(order: .day)) == ["A", "B", "C", "D", "E"])
        #expect(ids(.init(order: .start)) == ["E", "D", "C", "B", "A"])
        #expect(ids(.init(inGrace: true)) == ["D", "E"])
        #expect(ids(.init(inGrace: false, minimumChance: 0.1)) == ["C", "B"])
        #expect(ids(.init(minimumDay: 20, order: .chance)) == ["B", "C", "A"])
    }

    @Test func noStepAtOrBeforeTheDurationAndNoOneLeftInRetry() {
        // Before the first event CIF is 0 and S is 1: the chance is CIF(60 d) itself.
        let curve = RecoveryCurve.Tally(asOf: t0 + 90 * T.day)
        var tally = curve
        tally.add(episode("A", start: t0, .recovered, after: 4 * T.day))
        tally.add(episode("B", start: t0, .expired, after: 60 * T.day))
        let estimate = tally.estimate
        // t = 4: n = 2, recovered → CIF 1/2, S 1/2; t = 60: expired → S 0.
        #expect(estimate.recoveryChance(duration: 0) == 0.5)
        #expect(estimate.recoveryChance(duration: 4 * T.day) == 0)
        // S(60 d) = 0: no one is left in retry, the chance is 0.
        #expect(estimate.recoveryChance(duration: 60 * T.day) == 0)
        #expect(estimate.recoveryChance(duration: 75 * T.day) == 0)
    }
}
