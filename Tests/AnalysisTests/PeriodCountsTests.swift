import Analysis
import TestSupport
import Testing

@Suite struct PeriodCountsTests {
    let march = CalendarPeriod(monthContaining: T.march1)
    let april = CalendarPeriod(monthContaining: T.april1)
    let may = CalendarPeriod(monthContaining: T.may1)

    @Test func keepsPeriodsInOrderWhateverTheOrderOfAdding() {
        var counts = PeriodCounts()
        counts.add(may)
        counts.add(march, count: 2)
        counts.add(may)
        counts.add(april)
        counts.add(march)
        #expect(counts.periods == [march, april, may])
        #expect([counts[march], counts[april], counts[may]] == [3, 1, 2])
        #expect(counts[CalendarPeriod(monthContaining: 0)] == 0)
        #expect(counts == PeriodCounts([may: 2, april: 1, march: 3]))
    }

    @Test func merges() {
        var total = PeriodCounts([march: 1, may: 1])
        total.add(PeriodCounts([april: 2, may: 3]))
        #expect(total == PeriodCounts([march: 1, april: 2, may: 4]))
    }
}
