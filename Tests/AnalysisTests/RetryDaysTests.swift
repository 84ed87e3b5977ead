import Analysis
import TestSupport
import Testing

@Suite struct RetryDaysTests {
    static let asOf = T.may1
    let h = T.hour
    let t0 = T.march1

    @Test func messageDaysOfTheDefaultSchedule() {
        let days = RetryDays.lifeTable(episodes: [], asOf: Self.asOf).filter(\.isMessageDay).map(\.day)
        #expect(days == [1, 2, 3, 4, 7, 10, 13, 16, 17, 21, 25, 29, 31, 36, 41, 46, 51, 56])
    }

    @Test func graceEndBeforeTheStartOrPastDay60ChangesNothing() {
        // ⌊(grace_end − t0)/24 h⌋ + 1 is 0 for a grace end 1 h before t0, 62 for one at 61 days + 1 h.
        let before = episode("b", start: t0, .recovered, after: 5 * h, grace: t0 - h)
        let after = episode("a", start: t0, .expired, after: 60 * T.day, grace: t0 + 61 * T.day + h)
        let days = RetryDays.lifeTable(episodes: [before, after], asOf: Self.asOf)
        #expect(days[0].counts == EventRate(events: 1, atRisk: 2))
        #expect(days[59].counts == EventRate(events: 0, atRisk: 1))
    }
}
