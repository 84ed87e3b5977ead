import Analysis
import Reports
import TestSupport
import Testing

@Suite struct BillingFailuresTableTests {
    @Test func ratePerMonthWithTotal() {
        let episodes = [
            episode("a", start: T.march1, .recovered, after: T.day),
            episode("b", start: T.march1 + 20 * T.day, .open),
            episode("c", start: T.april1, .expired, after: 60 * T.day),
        ]
        let renewals = PeriodCounts([
            CalendarPeriod(monthContaining: T.march1): 6,
            CalendarPeriod(monthContaining: T.may1): 4,
        ])
        // 2024-03: 2 / (2 + 6) = 0.25;  2024-04: 1 / (1 + 0) = 1;  2024-05: 0 / (0 + 4) = 0;
        // total: 3 / (3 + 10) = 0.230769.
        let table = BillingFailures.table(BillingFailures.rows(episodes: episodes, renewals: renewals))
        #expect(table.name == "billing_failures.csv")
        #expect(table.columns == ["month", "episodes_started", "renewals", "billing_failure_rate"])
        #expect(
            lines(table) == [
                "2024-03,2,6,0.250000",
                "2024-04,1,0,1.000000",
                "2024-05,0,4,0.000000",
                "(all),3,10,0.230769",
            ])
    }

    @Test func emptyIsAnEmptyRate() {
        #expect(
            lines(BillingFailures.table(BillingFailures.rows(episodes: [], renewals: PeriodCounts()))) == ["(all),0,0,"]
        )
    }

    @Test func fromNotificationsInScope() {
        // One subscription: two ordinary renewals, a failure, a recovery (not a renewal), and notifications that
        // are out of scope (Sandbox, family-shared, after as-of, a duplicate).
        let asOf = T.april1 + 10 * T.day
        let builder = EpisodeBuilder(options: .init(asOf: asOf))
        let dataset = builder.dataset([
            event("r1", "DID_RENEW", at: T.march1 + T.day, purchase: T.march1 + T.day),
            event("r1", "DID_RENEW", at: T.march1 + T.day, purchase: T.march1 + T.day),
            event("r2", "DID_RENEW", at: T.march1 + 2 * T.day, subscription: "S2"),
            event("f1", "DID_FAIL_TO_RENEW", at: T.april1 + 60_000, expires: T.april1),
            event("b1", "DID_RENEW", "BILLING_RECOVERY", at: T.april1 + T.day, purchase: T.april1 + T.day),
            event("x1", "DID_RENEW", at: T.march1 + 3 * T.day, environment: "Sandbox"),
            event("x2", "DID_RENEW", at: T.march1 + 3 * T.day, ownership: "FAMILY_SHARED"),
            event("x3", "DID_RENEW", at: asOf + 1),
        ])
        // 2024-03: 0 / (0 + 2) = 0;  2024-04: 1 / (1 + 0) = 1;  total 1 / 3.
        #expect(
            lines(BillingFailures.table(BillingFailures.rows(episodes: dataset.episodes, renewals: dataset.renewals)))
                == [
                    "2024-03,0,2,0.000000",
                    "2024-04,1,0,1.000000",
                    "(all),1,2,0.333333",
                ])
    }
}
