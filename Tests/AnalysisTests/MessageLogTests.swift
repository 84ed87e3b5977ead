import Analysis
import Foundation
import TestSupport
import Testing

/// METRICS.md v2.2, "Billing messages the app showed": shown days on a short log and an experiment's intervals,
/// each worked out by hand.
@Suite struct MessageLogTests {
    static let t0 = T.march1
    static let asOf = T.march1 + 200 * T.day

    static func episode(
        _ subscription: String, lasting duration: Int64, outcome: Episode.Outcome, graceDays: Int64? = nil
    ) -> Episode {
        Episode(
            subscription: subscription, start: t0, hasGrace: graceDays != nil,
            graceEnd: graceDays.map { t0 + $0 * T.day }, end: t0 + duration, outcome: outcome,
            openingNotificationUUID: subscription)
    }

    /// A: recovered after 2.5 days (at risk days 1–3, recovers on day 3), shown on day 3. B: expired after 60 days
    /// (days 1–60), shown on days 1 and 2. C: a 3-day grace period (its end on day 4, which counts nowhere),
    /// recovered after 4.5 days (day 5), shown on days 4 and 5. D: recovered within a day, no event at all: it
    /// counts, in the other group.
    static func tally() -> ShownDays.Tally {
        var tally = ShownDays.Tally(asOf: asOf)
        tally.add(episode("A", lasting: 60 * T.hour, outcome: .recovered), shownDays: [3])
        tally.add(episode("B", lasting: 60 * T.day, outcome: .expired), shownDays: [1, 2])
        tally.add(episode("C", lasting: 108 * T.hour, outcome: .recovered, graceDays: 3), shownDays: [4, 5])
        tally.add(episode("D", lasting: 12 * T.hour, outcome: .recovered), shownDays: [])
        return tally
    }

    @Test func shownDaysAgainstTheOthersOnAShortLog() throws {
        let rows = Self.tally().rows
        #expect(rows.map(\.band) == [1, 2, 3, 4, nil])
        let first = rows[0]
        // Days 1–3. Shown: B on 1 and 2, A on 3 (its recovery). Other: A, C, D on day 1 (D recovers), A and C on 2,
        // B and C on 3.
        #expect(first.episodes == 4)
        #expect(first.shownDays == 3)
        #expect(first.shown == EventRate(events: 1, atRisk: 3))
        #expect(first.other == EventRate(events: 1, atRisk: 7))
        // Mantel–Haenszel over the days with both groups: day 1 (0/1 against 1/3), day 2 (0/1, 0/2), day 3 (1/1, 0/2).
        // RR = (0 + 0 + 1·2/3) / (1·1/4 + 0 + 0) = 8/3; Var(ln RR) = (1·3·1/16 + 0 + 1·2·1/9) / ((2/3)·(1/4)).
        let ratio = try #require(first.ratio.ratio)
        #expect(abs(ratio - 8.0 / 3) < 1e-12)
        let standardError = ((3.0 / 16 + 2.0 / 9) / (2.0 / 3 * 0.25)).squareRoot()
        let interval = try #require(first.ratio.interval)
        #expect(abs(interval.low - exp(log(8.0 / 3) - ConfidenceInterval.z * standardError)) < 1e-12)
        #expect(abs(interval.high - exp(log(8.0 / 3) + ConfidenceInterval.z * standardError)) < 1e-12)

        // Days 4–16: C's grace-end day 4 counts nowhere; C recovers on its shown day 5; B is at risk every day.
        let second = rows[1]
        #expect(second.episodes == 2)
        #expect(second.shown == EventRate(events: 1, atRisk: 1))
        #expect(second.other == EventRate(events: 0, atRisk: 13))
        // No recovery on the other days: no ratio.
        #expect(second.ratio.ratio == nil)

        let all = try #require(rows.last)
        #expect(all.firstDay == 1 && all.lastDay == 60)
        #expect(all.episodes == 4)
        #expect(all.shown == EventRate(events: 2, atRisk: 4))
        // 3 + 2 + 2 + 1 + 1 on days 1–5, then B alone on days 6–60.
        #expect(all.other == EventRate(events: 1, atRisk: 9 + 55))
        // Days 1, 2, 3 and 5 have both groups: RR = (2/3 + 1·1/2) / (1/4).
        let pooled = try #require(all.ratio.ratio)
        let expected: Double = (2.0 / 3 + 0.5) / 0.25
        #expect(abs(pooled - expected) < 1e-12)
    }

    @Test func newcombesPublishedExample() throws {
        // Newcombe (1998), Statistics in Medicine 17:873–890, Table II, example (a): 56/70 − 48/80 = 0.2000, method 10
        // 0.0524 to 0.3339.
        let interval = try #require(ConfidenceInterval.newcombe(successes: 56, trials: 70, successes: 48, trials: 80))
        #expect(abs(interval.low - 0.0524) < 0.00005)
        #expect(abs(interval.high - 0.3339) < 0.00005)
        #expect(ConfidenceInterval.newcombe(successes: 0, trials: 0, successes: 1, trials: 2) == nil)
    }

    @Test func anExperimentsArmsAgainstTheReferenceArm() throws {
        var tally = MessageExperiment.Tally(asOf: Self.asOf)
        // Arm "a" (the reference: first in name order): one of four recovers on day 1. Arm "b": three of four.
        for (index, recovered) in [true, false, false, false].enumerated() {
            tally.add(
                Self.episode(
                    "a\(index)", lasting: recovered ? 12 * T.hour : 60 * T.day,
                    outcome: recovered ? .recovered : .expired), arm: "a")
        }
        for (index, recovered) in [true, true, true, false].enumerated() {
            tally.add(
                Self.episode(
                    "b\(index)", lasting: recovered ? 12 * T.hour : 60 * T.day,
                    outcome: recovered ? .recovered : .expired), arm: "b")
        }
        let rows = tally.rows
        #expect(rows.map(\.arm) == ["a", "b"])
        let (a, b) = (rows[0], rows[1])
        #expect(a.matureEpisodes == 4 && a.matureRecovered == 1 && b.matureRecovered == 3)
        #expect(a.difference == nil && a.hazardRatio == nil)
        #expect(a.cif == [0.25, 0.25, 0.25])
        #expect(b.cif == [0.75, 0.75, 0.75])
        #expect(b.difference == 0.5)
        // Wilson 1/4: 0.04560–0.69936; 3/4: 0.30064–0.95440. Newcombe: 0.5 − √(0.44936² + 0.44936²) to
        // 0.5 + √(0.20440² + 0.20440²).
        let difference = try #require(b.differenceInterval)
        #expect(abs(difference.low - (0.5 - (2 * 0.44936 * 0.44936).squareRoot())) < 1e-4)
        #expect(abs(difference.high - (0.5 + (2 * 0.20440 * 0.20440).squareRoot())) < 1e-4)
        // Day 1: b 3 of 4, a 1 of 4; later days no recovery. RR = (3·4/8) / (1·4/8) = 3;
        // Var(ln RR) = (4·4·4/64) / (1.5 · 0.5).
        let ratio = try #require(b.hazardRatio)
        #expect(try abs(#require(ratio.ratio) - 3) < 1e-12)
        let interval = try #require(ratio.interval)
        #expect(abs(interval.low - exp(log(3) - ConfidenceInterval.z * (1 / 0.75).squareRoot())) < 1e-12)
    }
}
