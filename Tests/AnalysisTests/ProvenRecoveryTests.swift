import Analysis
import TestSupport
import Testing

/// A renewal Apple's transaction history proved ends an episode only where the notifications leave its end unknown,
/// within its retry window, and as of its purchase (METRICS-NOTES.md, "Repair beyond 180 days").
@Suite struct ProvenRecoveryTests {
    let t0 = T.march1

    func build(
        _ events: [NotificationEvent], proofs: [ProvenRecovery], asOf: Int64 = T.march1 + 200 * T.day
    ) -> EpisodeDataset {
        var dataset = EpisodeBuilder(options: .init(asOf: asOf, provenRecoveries: ["S1": proofs])).dataset(events)
        dataset.finish()
        return dataset
    }

    func failure(commitment: Bool = false) -> NotificationEvent {
        event(
            "f1", "DID_FAIL_TO_RENEW", at: t0 + T.minute, expires: t0, price: 9990, currency: "USD",
            billingPlanType: commitment ? "MONTHLY" : nil)
    }

    func proof(onDay day: Int64) -> ProvenRecovery {
        ProvenRecovery(
            transactionId: "S1-renewal", purchaseDate: t0 + (day - 1) * T.day + T.hour, price: 9990, currency: "USD")
    }

    @Test func aProvenRenewalEndsAnEpisodeNoNotificationEnded() throws {
        let episode = try #require(build([failure()], proofs: [proof(onDay: 10)]).episodes.first)
        #expect(episode.outcome == .recovered)
        #expect(episode.recoveredBy == .retry)
        #expect(episode.end == t0 + 9 * T.day + T.hour)
        #expect(!episode.endInferred)
        #expect(episode.recoveryPrice == 9990)
        #expect(episode.recoveryCurrency == "USD")
        #expect(episode.closingNotificationUUID == nil)
        #expect(episode.provenRecoveryTransactionId == "S1-renewal")
    }

    @Test func aLaterNotificationEndingTheWindowFindsTheProofFirst() throws {
        // A renewal of another period, signed after t0 + 61 days: rule 1 ends the episode, by the proof.
        let later = event(
            "r9", "DID_RENEW", at: t0 + 100 * T.day, expires: t0 + 130 * T.day, purchase: t0 + 100 * T.day)
        let dataset = build([failure(), later], proofs: [proof(onDay: 20)])
        #expect(dataset.episodes.map(\.outcome) == [.recovered])
        #expect(dataset.episodes.first?.end == t0 + 19 * T.day + T.hour)
        #expect(dataset.dataQuality.inferredExpiry == 0)
    }

    @Test func aRenewalOutsideTheWindowProvesNothing() throws {
        // Day 70 lies past a standard plan's 60 days: still expired by inference.
        let standard = try #require(build([failure()], proofs: [proof(onDay: 70)]).episodes.first)
        #expect(standard.outcome == .expired)
        #expect(standard.endInferred)
        #expect(standard.provenRecoveryTransactionId == nil)
        // Under a commitment the window is 90 days: day 70 recovers it.
        let commitment = try #require(build([failure(commitment: true)], proofs: [proof(onDay: 70)]).episodes.first)
        #expect(commitment.outcome == .recovered)
    }

    @Test func aNotificationThatEndedTheEpisodeStands() throws {
        let expired = event("e1", "EXPIRED", "BILLING_RETRY", at: t0 + 30 * T.day, expires: t0)
        let episode = try #require(build([failure(), expired], proofs: [proof(onDay: 10)]).episodes.first)
        #expect(episode.outcome == .expired)
        #expect(episode.closingNotificationUUID == "e1")
        #expect(episode.provenRecoveryTransactionId == nil)
    }

    @Test func aRenewalCountsAsOfItsPurchase() throws {
        // As of day 5 the renewal of day 10 had not happened: the episode is open.
        let before = try #require(build([failure()], proofs: [proof(onDay: 10)], asOf: t0 + 5 * T.day).episodes.first)
        #expect(before.outcome == .open)
        // The renewal of day 42 lies in the windows of both episodes; the first ended by a notification, so only
        // the second, which no notification ended, takes it.
        let second = event("f2", "DID_FAIL_TO_RENEW", at: t0 + 40 * T.day, expires: t0 + 40 * T.day, price: 9990)
        let renewal = event(
            "r1", "DID_RENEW", "BILLING_RECOVERY", at: t0 + 30 * T.day, expires: t0 + 40 * T.day,
            purchase: t0 + 30 * T.day)
        let episodes = build([failure(), renewal, second], proofs: [proof(onDay: 42)]).episodes
        #expect(episodes.map(\.outcome) == [.recovered, .recovered])
        #expect(episodes.map(\.closingNotificationUUID) == ["r1", nil])
        #expect(episodes.map(\.provenRecoveryTransactionId) == [nil, "S1-renewal"])
    }
}
