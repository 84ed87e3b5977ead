import Analysis
import TestSupport
import Testing

/// METRICS.md v2.2, "Billing messages the app showed": how a log's events find their subscription (by id, else by the
/// token the subscription held at the event's time), their episode (the one in retry then), which episodes the log
/// covers, and which events count as `message_event_outside_retry`. Worked out by hand on a short log.
@Suite struct MessageLogLinkingTests {
    static let t0 = T.march1
    static let asOf = T.march1 + 200 * T.day
    static let tokenA = "7f5c6e2a-1b2c-4d3e-8f90-a1b2c3d4e5f6"
    static let tokenB = "0a1b2c3d-4e5f-4061-8293-a4b5c6d7e8f9"

    /// s1 and s2 hold tokens: s2 had A from 30 days before t0 and B from t0 + 2 days; s3 took A at t0 + 2 days + 1 h.
    static let sightings = [
        MessageLog.TokenSighting(subscription: "s2", token: tokenA, signedDate: t0 - 30 * T.day),
        MessageLog.TokenSighting(subscription: "s2", token: tokenB, signedDate: t0 + 2 * T.day),
        MessageLog.TokenSighting(subscription: "s3", token: tokenA, signedDate: t0 + 2 * T.day + T.hour),
    ]
    static let apps = ["s1": "app.a", "s2": "app.a", "s3": "app.a"]

    static func event(
        _ id: String?, token: String? = nil, at: Int64, _ action: MessageEvent.Action = .shown, arm: String? = nil
    ) -> MessageEvent {
        MessageEvent(originalTransactionId: id, appAccountToken: token, at: t0 + at, action: action, arm: arm)
    }

    /// In the order of their times.
    static let events = [
        event("s1", at: -T.day),  // 0: before s1's episode: outside retry
        event("zzz", at: 0),  // 1: no subscription of the environment: outside retry
        event("s1", at: T.hour, arm: "a"),  // 2: s1's episode, day 1
        event(nil, token: tokenA, at: T.day + T.hour, arm: "b"),  // 3: A is s2's then: s2's episode, day 1
        event("unknown", token: tokenA, at: T.day + 2 * T.hour),  // 4: an unknown id, so the token: s2, day 1
        event(nil, token: tokenA, at: 2 * T.day + 2 * T.hour),  // 5: s2 holds B by then; s3 took A: s3, no episode
        event("s1", at: 3 * T.day + 2 * T.hour),  // 6: s1's episode, day 4
        event("s1", at: 5 * T.day, .deferred),  // 7: s1's episode, day 6, not a shown day
        event("s1", at: 20 * T.day),  // 8: after s1's episode ended: outside retry
    ]

    static func episode(
        _ subscription: String, start: Int64, lasting duration: Int64?, outcome: Episode.Outcome, app: String
    ) -> Episode {
        Episode(
            subscription: subscription, start: t0 + start, end: duration.map { t0 + start + $0 }, outcome: outcome,
            bundleId: app, openingNotificationUUID: subscription)
    }

    @Test func eventsFindTheirSubscriptionByIdElseByTheTokenHeldThen() {
        var linker = MessageLog.Linker(apps: Self.apps, sightings: Self.sightings)
        let linked = Self.events.map { linker.add($0) }
        let expected: [String?] = ["s1", nil, "s1", "s2", "s2", "s3", "s1", "s1", "s1"]
        #expect(linked == expected)
        #expect(linker.count == Self.events.count)
        let log = linker.log()
        #expect((log.count, log.unlinked) == (Self.events.count, 1))
        // The app's span: its subscriptions' first and last events (the unlinked one counts in no app), whatever
        // the order the events come in.
        #expect(log.spans == ["app.a": (Self.t0 - T.day)...(Self.t0 + 20 * T.day)])
        let reversed = MessageLog(events: Self.events.reversed(), apps: Self.apps, sightings: Self.sightings)
        #expect(reversed.spans == log.spans)
    }

    @Test func aTokenHeldByTwoSubscriptionsGoesToTheOneThatTookItLast() {
        let sightings = [
            MessageLog.TokenSighting(subscription: "s9", token: Self.tokenA, signedDate: Self.t0),
            MessageLog.TokenSighting(subscription: "s8", token: Self.tokenA, signedDate: Self.t0 + T.hour),
            // Same moment as s8's: the smaller id wins that tie.
            MessageLog.TokenSighting(subscription: "s7", token: Self.tokenA, signedDate: Self.t0 + T.hour),
        ]
        let apps = ["s7": "x", "s8": "x", "s9": "x"]
        let early = Self.event(nil, token: Self.tokenA, at: 30 * T.minute)
        let late = Self.event(nil, token: Self.tokenA, at: 2 * T.hour)
        var linker = MessageLog.Linker(apps: apps, sightings: sightings)
        #expect([early, late].map { linker.add($0) } == ["s9", "s7"])
    }

    @Test func shownDaysExperimentArmsAndEventsOutsideRetry() throws {
        let log = MessageLog(events: Self.events, apps: Self.apps, sightings: Self.sightings)
        var tally = MessageLog.Tally(log: log, asOf: Self.asOf)
        let episodes = [
            // Recovered after 10 days: at risk on days 1–11, recovered on day 11; shown on days 1 and 4.
            Self.episode("s1", start: 0, lasting: 10 * T.day, outcome: .recovered, app: "app.a"),
            // Open from t0 + 1 day: days 1–60; shown on day 1 (two events that day).
            Self.episode("s2", start: T.day, lasting: nil, outcome: .open, app: "app.a"),
            // No event, but it began inside the app's span: covered, every day in the other group.
            Self.episode("s6", start: 5 * T.day, lasting: 12 * T.hour, outcome: .recovered, app: "app.a"),
            // Began after the span, and another app's: not covered.
            Self.episode("s8", start: 30 * T.day, lasting: 12 * T.hour, outcome: .recovered, app: "app.a"),
            Self.episode("s7", start: 2 * T.day, lasting: 12 * T.hour, outcome: .recovered, app: "app.b"),
        ]
        #expect(episodes.map(log.covers) == [true, true, true, false, false])
        for episode in episodes { tally.add(episode) }

        // Events 0, 1, 5 and 8.
        #expect(tally.outsideRetry == 4)

        let all = try #require(tally.shownDayRows.last)
        #expect(all.band == nil)
        #expect(all.episodes == 3)
        #expect(all.shownDays == 3)
        #expect(all.shown == EventRate(events: 0, atRisk: 3))
        // s1: days 2, 3, 5–11 (9 days, its recovery on day 11); s2: days 2–60 (59); s6: day 1, recovered.
        #expect(all.other == EventRate(events: 2, atRisk: 9 + 59 + 1))

        // Each episode's arm is its first event's: s1 "a", s2 "b"; s6 has none.
        let arms = tally.experimentRows
        #expect(arms.map(\.arm) == ["a", "b"])
        #expect(arms.map(\.episodes) == [1, 1])

        // The events in another order link and tally alike: each subscription's are read by time.
        var reversed = MessageLog.Tally(
            log: MessageLog(events: Self.events.reversed(), apps: Self.apps, sightings: Self.sightings),
            asOf: Self.asOf)
        for episode in episodes { reversed.add(episode) }
        #expect(reversed.outsideRetry == tally.outsideRetry)
        #expect(reversed.shownDayRows == tally.shownDayRows)
        #expect(reversed.experimentRows == tally.experimentRows)
    }

    @Test func aLogWithoutArmsHasNoExperimentAndCoversFromItsFirstEvent() {
        let log = MessageLog(events: [Self.event("s1", at: T.hour)], apps: Self.apps, sightings: [])
        var tally = MessageLog.Tally(log: log, asOf: Self.asOf)
        tally.add(Self.episode("s1", start: 0, lasting: T.day, outcome: .recovered, app: "app.a"))
        #expect(tally.experimentRows.isEmpty)
        // The event is in the episode's retry, but the log covers its app only from that event on: the episode
        // began an hour before, so it is not covered and its shown day counts nowhere.
        #expect(tally.outsideRetry == 0)
        #expect(tally.shownDayRows.last?.episodes == 0)

        // A log that began earlier covers it.
        let earlier = MessageLog(
            events: [Self.event("s1", at: -T.day, .deferred), Self.event("s1", at: T.hour)], apps: Self.apps,
            sightings: [])
        var covered = MessageLog.Tally(log: earlier, asOf: Self.asOf)
        covered.add(Self.episode("s1", start: 0, lasting: T.day, outcome: .recovered, app: "app.a"))
        #expect(covered.outsideRetry == 1)
        #expect(covered.shownDayRows.last?.shownDays == 1)
    }

    @Test func tokensCompareAsUUIDsWhateverTheirCase() {
        #expect(MessageEvent.token("7F5C6E2A-1B2C-4D3E-8F90-A1B2C3D4E5F6") == Self.tokenA)
        #expect(MessageEvent.token(Self.tokenA) == Self.tokenA)
        #expect(MessageEvent.token("7f5c6e2a1b2c4d3e8f90a1b2c3d4e5f6") == nil)
        #expect(MessageEvent.token("7f5c6e2a-1b2c-4d3e-8f90-a1b2c3d4e5fg") == nil)
        #expect(MessageEvent.token("") == nil)
    }

    @Test func theRetryDayOfAMoment() {
        let episode = Self.episode("s1", start: 0, lasting: nil, outcome: .open, app: "a")
        #expect(RetryDays.day(of: Self.t0, in: episode) == 1)
        #expect(RetryDays.day(of: Self.t0 + T.day - 1, in: episode) == 1)
        #expect(RetryDays.day(of: Self.t0 + T.day, in: episode) == 2)
        #expect(RetryDays.day(of: Self.t0 - 1, in: episode) == 0)
    }
}
