import Analysis
import TestSupport
import Testing

@Suite struct EpisodeStreamTests {
    let t0 = T.march1
    let builder = EpisodeBuilder(options: .init(asOf: T.march1 + 90 * T.day))

    /// Three subscriptions, as `ORDER BY original_transaction_id, …` delivers them (NULLs last); the order
    /// inside each run is deliberately not by time.
    var grouped: [NotificationEvent] {
        [
            event("a2", "EXPIRED", "BILLING_RETRY", at: t0 + 60 * T.day, subscription: "A"),
            event("a1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, subscription: "A", expires: t0),
            event("b1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, subscription: "B", expires: t0),
            event("b2", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 2 * T.day, subscription: "B"),
            event("b2", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 2 * T.day, subscription: "B"),
            event("c1", "DID_RENEW", "BILLING_RECOVERY", at: t0, subscription: "C"),
            event("t1", "TEST", at: t0, subscription: nil, environment: "Sandbox"),
            event("t1", "TEST", at: t0, subscription: nil, environment: "Sandbox"),
        ]
    }

    @Test func yieldsOneResultPerRun() {
        let results = Array(builder.subscriptions(groupedBySubscription: grouped))
        #expect(results.map(\.subscription) == ["A", "B", "C", nil])
        #expect(results.map { $0.episodes.map(\.outcome) } == [[.expired], [.recovered], [], []])
        #expect(results[1].dataQuality == DataQualityCounts(duplicatesSkipped: 1))
        #expect(results[2].dataQuality == DataQualityCounts(orphanDidRenewBillingRecovery: 1))
        #expect(results[3].dataQuality == DataQualityCounts(duplicatesSkipped: 1, outsideEnvironment: 1))
    }

    @Test func pushInterfaceReturnsEachSubscriptionWhenTheNextBegins() {
        var stream = EpisodeStream(builder: builder)
        var finished: [String?] = []
        for event in grouped {
            if let result = stream.add(event) { finished.append(result.subscription) }
        }
        #expect(finished == ["A", "B", "C"])
        #expect(stream.finish()?.subscription == .some(nil))
        #expect(stream.finish() == nil)
    }

    @Test func streamedDatasetEqualsInMemoryGrouping() {
        let streamed = builder.dataset(groupedBySubscription: grouped)
        let inMemory = builder.dataset(grouped.shuffled())
        #expect(streamed == inMemory)
        #expect(streamed.episodes.count == 2)
        #expect(
            streamed.dataQuality
                == DataQualityCounts(duplicatesSkipped: 2, outsideEnvironment: 1, orphanDidRenewBillingRecovery: 1)
        )
    }

    @Test func emptyInputYieldsNothing() {
        #expect(Array(builder.subscriptions(groupedBySubscription: [NotificationEvent]())).isEmpty)
    }

    @Test func aSubscriptionSplitOverTwoRunsYieldsTwoResults() {
        // The documented hazard of unordered input: the stream cannot see that "A" comes back.
        let split = [
            event("a1", "DID_FAIL_TO_RENEW", at: t0, subscription: "A", expires: t0),
            event("b1", "DID_RENEW", at: t0, subscription: "B"),
            event("a2", "EXPIRED", "BILLING_RETRY", at: t0 + T.day, subscription: "A"),
        ]
        let results = Array(builder.subscriptions(groupedBySubscription: split))
        #expect(results.map(\.subscription) == ["A", "B", "A"])
        #expect(results[2].dataQuality.orphanExpiredBillingRetry == 1)
    }
}
