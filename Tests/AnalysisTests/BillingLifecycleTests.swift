import Analysis
import TestSupport
import Testing

/// The billing-issue life of one Sandbox subscription (`BillingLifecycle`, from samples/billing-lifecycle).
@Suite struct BillingLifecycleTests {
    static let subscription = BillingLifecycle.subscription
    static let events = BillingLifecycle.events
    static let asOf = BillingLifecycle.asOf

    var dataset: EpisodeDataset {
        EpisodeBuilder(options: .init(environment: "Sandbox", asOf: Self.asOf)).dataset(Self.events.reversed())
    }

    @Test func twoEpisodesRecoveredAfterGraceThenExpired() {
        let expected = [
            Episode(
                subscription: Self.subscription, sequence: 1, environment: "Sandbox",
                productId: "com.example.monthly", storefront: "USA", start: 1_711_843_200_000, hasGrace: true,
                graceEnd: 1_713_225_600_000, end: 1_713_571_200_000, outcome: .recovered, recoveryPrice: 9990,
                recoveryCurrency: "USD", stakePrice: 9990, stakeCurrency: "USD", bundleId: "com.example",
                openingNotificationUUID: "093f9e0a-308c-5edd-83aa-70179d290f4a",
                closingNotificationUUID: "a4d7c5e8-7307-5570-8c5a-d946a51ef84b", openingPrice: 9990, periodDays: 30),
            Episode(
                subscription: Self.subscription, sequence: 2, environment: "Sandbox",
                productId: "com.example.monthly", storefront: "USA", start: 1_716_163_200_000, hasGrace: false,
                end: 1_721_347_200_000, outcome: .expired, stakePrice: 9990, stakeCurrency: "USD",
                bundleId: "com.example",
                openingNotificationUUID: "c7d487d1-047a-5e01-b7b7-4ce2abebee0a",
                closingNotificationUUID: "453029a2-973c-5229-a673-34c6be60e79d", openingPrice: 9990, periodDays: 30),
        ]
        let dataset = dataset
        #expect(dataset.episodes == expected)
        // 1 713 571 200 000 − 1 711 843 200 000 = 1 728 000 000 ms = 20 days (grace ended after 16 days).
        // 1 721 347 200 000 − 1 716 163 200 000 = 5 184 000 000 ms = 60 days.
        #expect(dataset.episodes.map { $0.duration(asOf: Self.asOf) } == [20 * T.day, 60 * T.day])
        #expect(dataset.episodes.map(\.isSavedInGrace) == [false, false])
        #expect(dataset.episodes.map(\.cohortMonth) == ["2024-03", "2024-05"])
        #expect(dataset.dataQuality == DataQualityCounts())
        #expect(dataset.renewals == PeriodCounts())
    }

    @Test func productionReportSeesNothing() {
        let dataset = EpisodeBuilder(options: .init(asOf: Self.asOf)).dataset(Self.events)
        #expect(dataset.episodes.isEmpty)
        #expect(dataset.dataQuality == DataQualityCounts(outsideEnvironment: 5))
    }
}
