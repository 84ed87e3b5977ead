import Analysis
import Foundation
import Testing
import TestSupport

@Suite struct MessageBandsTests {
    static let asOf = T.may1
    let h = T.hour

    @Test func comparedDaysOfTheDefaultSchedule() {
        let days = MessageSchedule.standard.bands.map { $0.comparedDays(through: 60) }
        #expect(days[0].messageDays.isEmpty && days[0].comparisonDays.isEmpty)
        #expect(days[1].messageDays == [7, 10, 13])
        #expect(days[1].comparisonDays == [6, 8, 9, 11, 12, 14])
        #expect(days[2].messageDays == [21, 25, 29])
        #expect(days[2].comparisonDays == [20, 22, 24, 26, 28, 30])
        #expect(days[3].messageDays == [36, 41, 46, 51, 56])
        #expect(days[3].comparisonDays == [35, 37, 40, 42, 45, 47, 50, 52, 55, 57])
    }

    @Test func comparisonDaysAreASetAndAllMessageDayBandsHaveNone() throws {
        // Band 1, days 1–6 every 48 h: messages on days 1, 3, 5. Day 1 has no neighbour 0 in the band; 3 and 5
        // have non-message neighbours: M = {3, 5}, C = {2, 4, 6} with day 4 once.
        // Band 2, days 7–9 every 24 h: every day is a message day, nothing to compare.
        // Band 3, days 10–70 every 240 h: messages on days 10, 20, …, 60 (70 is past the table); day 60's
        // neighbour 61 is outside days 1…60, so M = {20, 30, 40, 50}.
        let schedule = try MessageSchedule.parse("1-6 48h\n7-9 24h\n10-70 240h")
        let days = schedule.bands.map { $0.comparedDays(through: 60) }
        #expect(days[0].messageDays == [3, 5])
        #expect(days[0].comparisonDays == [2, 4, 6])
        #expect(days[1].messageDays.isEmpty && days[1].comparisonDays.isEmpty)
        #expect(days[2].messageDays == [20, 30, 40, 50])
        #expect(days[2].comparisonDays == [19, 21, 29, 31, 39, 41, 49, 51])
        #expect(schedule.messageDays(through: 60) == [1, 3, 5, 7, 8, 9, 10, 20, 30, 40, 50, 60])
        let figures = MessageBands.figures(episodes: [], asOf: Self.asOf, schedule: schedule)
        #expect(figures.map { $0.dayComparison != nil } == [true, false, true])
    }

    /// A life table of days 1…60 with `at_risk` and `recoveries` set on the given days, 0 elsewhere.
    private func lifeTable(_ counts: [Int: EventRate]) -> [RetryDays.Day] {
        RetryDays.days.map { RetryDays.Day(day: $0, isMessageDay: false, counts: counts[$0] ?? EventRate()) }
    }

    // Band 2: 100 at risk on every day; 2 recoveries on each of M_2 = {7, 10, 13}, 1 on each of the six C_2 days:
    //   R_M = 6, T_M = 300, R_C = 6, T_C = 600; ratio (6/300)/(6/600) = 2;
    //   interval exp(ln 2 ± z·√(1/6 + 1/6)) = exp(0.693147 ± 1.131586) = 0.645043, 6.201139.
    // Band 3: 50 at risk on every day; 1 recovery on day 21 (M_3), 1 on each of days 20, 22, 24 (C_3):
    //   R_M = 1, T_M = 150, R_C = 3, T_C = 300; ratio (1/150)/(3/300) = 2/3 = 0.666667;
    //   interval exp(ln(2/3) ± z·√(1 + 1/3)) = 0.069347, 6.409020.
    // Band 4: nobody at risk: T_M = T_C = 0, hazards and ratio undefined; its stratum adds nothing below.
    // Mantel–Haenszel over the bands (T_b = T_Mb + T_Cb):
    //   band 2, T = 900: R_M·T_C/T = 6·600/900 = 4, R_C·T_M/T = 6·300/900 = 2,
    //     T_M·T_C·(R_M + R_C)/T² = 300·600·12/810000 = 8/3;
    //   band 3, T = 450: 1·300/450 = 2/3, 3·150/450 = 1, 150·300·4/202500 = 8/9.
    //   RR = (4 + 2/3) / (2 + 1) = 14/9 = 1.555556;
    //   Var(ln RR) = (8/3 + 8/9) / [(14/3)·3] = (32/9)/14 = 16/63 = 0.253968;
    //   interval exp(ln(14/9) ± z·√(16/63)) = exp(0.441833 ± 0.987729) = 0.579322, 4.176868.
    //   Pooled hazards: (6 + 1)/(300 + 150) = 0.015556 and (6 + 3)/(600 + 300) = 0.01.
    @Test func mantelHaenszelByHand() throws {
        var counts: [Int: EventRate] = [:]
        for day in 4...16 { counts[day] = EventRate(events: 0, atRisk: 100) }
        for day in [7, 10, 13] { counts[day]?.events = 2 }
        for day in [6, 8, 9, 11, 12, 14] { counts[day]?.events = 1 }
        for day in 17...30 { counts[day] = EventRate(events: 0, atRisk: 50) }
        for day in [21, 20, 22, 24] { counts[day]?.events = 1 }
        let table = lifeTable(counts)
        let bands = MessageSchedule.standard.bands
        #expect(MessageBands.DayComparison(bands[0], lifeTable: table) == nil)
        let band2 = try #require(MessageBands.DayComparison(bands[1], lifeTable: table))
        let band3 = try #require(MessageBands.DayComparison(bands[2], lifeTable: table))
        let band4 = try #require(MessageBands.DayComparison(bands[3], lifeTable: table))

        #expect(band2.messageDayCounts == EventRate(events: 6, atRisk: 300))
        #expect(band2.otherDayCounts == EventRate(events: 6, atRisk: 600))
        #expect(band2.hazardRatio.ratio == 2)
        #expect(cells(band2.hazardRatio) == ["0.020000", "0.010000", "2.000000", "0.645043", "6.201139"])
        #expect(band3.messageDayCounts == EventRate(events: 1, atRisk: 150))
        #expect(band3.otherDayCounts == EventRate(events: 3, atRisk: 300))
        #expect(cells(band3.hazardRatio) == ["0.006667", "0.010000", "0.666667", "0.069347", "6.409020"])
        #expect(cells(band4.hazardRatio) == ["", "", "", "", ""])

        var figures = Array(repeating: MessageBands.Figures(), count: 4)
        for (index, comparison) in [nil, band2, band3, band4].enumerated() { figures[index].dayComparison = comparison }
        let pooled = try #require(MessageBands.pooled(figures))
        let ratio = try #require(pooled.ratio)
        #expect(abs(ratio - 14.0 / 9.0) < 1e-12)
        let interval = try #require(pooled.interval)
        let z = ConfidenceInterval.z
        #expect(abs(interval.low - 14.0 / 9.0 * exp(-z * (16.0 / 63.0).squareRoot())) < 1e-12)
        #expect(abs(interval.high - 14.0 / 9.0 * exp(z * (16.0 / 63.0).squareRoot())) < 1e-12)
        #expect(cells(pooled) == ["0.015556", "0.010000", "1.555556", "0.579322", "4.176868"])
    }

    @Test func rateRatioEdges() {
        // Only R_M is 0: ratio 0, no interval. R_C = 0: no ratio. Both 0: no ratio. T_M = 0: no ratio.
        let none = EventRate(events: 0, atRisk: 10)
        let some = EventRate(events: 2, atRisk: 10)
        #expect(RateRatio(none, to: some).ratio == 0)
        #expect(RateRatio(none, to: some).interval == nil)
        #expect(RateRatio(some, to: none).ratio == nil)
        #expect(RateRatio(none, to: none).ratio == nil)
        #expect(RateRatio(EventRate(), to: some).ratio == nil)
        // Pooled: a numerator of 0 gives 0 without an interval; no strata, no ratio.
        #expect(RateRatio(mantelHaenszel: [(none, some)]).ratio == 0)
        #expect(RateRatio(mantelHaenszel: [(none, some)]).interval == nil)
        #expect(RateRatio(mantelHaenszel: []).ratio == nil)
    }

    private func cells(_ ratio: RateRatio) -> [String] {
        [ratio.compared.rate, ratio.reference.rate, ratio.ratio, ratio.interval?.low, ratio.interval?.high]
            .map(sixPlaces)
    }

    @Test func recoveryAtBandStartBelongsToThatBand() {
        // D = 72 h exactly: band 2 = [72 h, 384 h) holds it, though the episode never entered band 2 (72 is not
        // > 72) and its message at 72 h was not sent.
        let figures = MessageBands.figures(
            episodes: [episode("x", start: T.march1, .recovered, after: 72 * h)], asOf: Self.asOf,
            schedule: .standard)
        #expect(figures.map(\.recoveries) == [0, 1, 0, 0])
        #expect(figures.map(\.episodesEntering) == [1, 0, 0, 0])
        #expect(figures[1].messages == 0)
        // Zero exposure in band 2: the hazard per day is undefined.
        #expect(figures[1].hazardPerDay == nil)
    }

    @Test func recoveryAfterTheLastBandIsInNoBand() {
        let figures = MessageBands.figures(
            episodes: [episode("x", start: T.march1, .recovered, after: 1440 * h)], asOf: Self.asOf,
            schedule: .standard)
        #expect(figures.map(\.recoveries) == [0, 0, 0, 0])
        #expect(figures.map(\.messages) == [3, 5, 4, 6])
        #expect(figures.map(\.exposure).reduce(0, +) == 1440 * h)
    }

    @Test func intervalsShorterThanADay() throws {
        // One band, days 1–2, a message every 12 h: 0, 12, 24, 36. D = 30 h: messages 0, 12, 24 → 3.
        let schedule = try MessageSchedule.parse("1-2 12h")
        let figures = MessageBands.figures(
            episodes: [episode("x", start: T.march1, .expired, after: 30 * h)], asOf: Self.asOf, schedule: schedule)
        #expect(figures.count == 1)
        #expect(figures[0].messages == 3)
        #expect(figures[0].exposure == 30 * h)
        #expect(figures[0].dayComparison == nil)
    }
}
