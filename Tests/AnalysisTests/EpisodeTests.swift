import Analysis
import TestSupport
import Testing

@Suite struct EpisodeTests {
    @Test func durationClampsAtZeroAndUsesAsOfWhileOpen() {
        let closed = episode("c", start: T.march1, .recovered, after: 0)
        var early = closed
        early.end = T.march1 - T.day
        #expect(early.duration(asOf: T.may1) == 0)
        #expect(episode("o", start: T.march1, .open).duration(asOf: T.march1 + 5 * T.hour) == 5 * T.hour)
        #expect(episode("o", start: T.march1, .open).duration(asOf: T.march1 - 1) == 0)
        // Absurd timestamps saturate instead of overflowing.
        var absurd = closed
        (absurd.start, absurd.end) = (Int64.min, Int64.max)
        #expect(absurd.duration(asOf: 0) == Int64.max)
    }

    @Test(arguments: [
        (T.march1 + 16 * T.day, true),  // at grace_end
        (T.march1 + 16 * T.day + 1, false),  // one millisecond after
    ])
    func savedInGraceIsAtOrBeforeGraceEnd(end: Int64, saved: Bool) {
        var recovered = episode("g", start: T.march1, .recovered, grace: T.march1 + 16 * T.day)
        recovered.end = end
        #expect(recovered.isSavedInGrace == saved)
    }

    @Test func onlyRecoveredGraceEpisodesAreSaved() {
        #expect(!episode("n", start: T.march1, .recovered, after: T.day).isSavedInGrace)
        #expect(!episode("e", start: T.march1, .expired, after: T.day, grace: T.march1 + 3 * T.day).isSavedInGrace)
    }

    @Test func graceIsDecidedWhenClosedOrWhenGraceEndedByAsOf() {
        let asOf = T.march1 + 10 * T.day
        #expect(
            episode("c", start: T.march1, .expired, after: T.day, grace: T.march1 + 30 * T.day).isGraceDecided(
                asOf: asOf))
        #expect(episode("o", start: T.march1, .open, grace: asOf).isGraceDecided(asOf: asOf))
        #expect(!episode("o", start: T.march1, .open, grace: asOf + 1).isGraceDecided(asOf: asOf))
        #expect(!episode("o", start: T.march1, .open, grace: .some(nil)).isGraceDecided(asOf: asOf))
    }

    @Test func cohortLabels() {
        let sunday = episode("w", start: 1_609_675_200_000, .open)  // 2021-01-03
        #expect(sunday.cohortMonth == "2021-01")
        #expect(sunday.cohortWeek == "2020-W53")
    }
}
