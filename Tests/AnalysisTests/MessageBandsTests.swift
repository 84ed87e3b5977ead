import Analysis
import Foundation
import TestSupport
import Testing

@Suite struct MessageBandsTests {
    static let asOf = T.may1
    let h = T.hour

    @Test func comparedMessageDaysOfTheDefaultSchedule() {
        let days = MessageSchedule.standard.bands.map { $0.comparedMessageDays(through: 60) }
        #expect(days == [[], [7, 10, 13], [21, 25, 29], [36, 41, 46, 51, 56]])
        let figures = MessageBands.figures(episodes: [], asOf: Self.asOf, schedule: .standard)
        #expect(
            figures.map { $0.dayComparison?.messageDays } == [nil, [7, 10, 13], [21, 25, 29], [36, 41, 46, 51, 56]])
        #expect(figures[1].dayComparison?.strata.map(\.days) == [6...8, 9...11, 12...14])
    }

    @Test func messageDaysWithoutTwoMessageFreeNeighboursAndAllMessageDayBandsAreNotCompared() throws {
        // Band 1, days 1–6 every 48 h: messages on days 1, 3, 5. Day 1 has no neighbour 0 in the band; 3 and 5
        // have non-message neighbours: M = {3, 5}, whose strata {2, 3, 4} and {4, 5, 6} share day 4.
        // Band 2, days 7–9 every 24 h: every day is a message day, nothing to compare.
        // Band 3, days 10–70 every 240 h: messages on days 10, 20, …, 60 (70 is past the table); day 10's
        // neighbour 9 lies in band 2 and day 60's neighbour 61 outside days 1…60, so M = {20, 30, 40, 50}.
        let schedule = try MessageSchedule.parse("1-6 48h\n7-9 24h\n10-70 240h")
        let days = schedule.bands.map { $0.comparedMessageDays(through: 60) }
        #expect(days == [[3, 5], [], [20, 30, 40, 50]])
        #expect(schedule.messageDays(through: 60) == [1, 3, 5, 7, 8, 9, 10, 20, 30, 40, 50, 60])
        let figures = MessageBands.figures(episodes: [], asOf: Self.asOf, schedule: schedule)
        #expect(figures.map { $0.dayComparison != nil } == [true, false, true])
    }

    // Ten episodes from t0 = March 1, as of May 1 (D in hours; the last day at risk is ⌊D/24⌋ + 1 when ended,
    // ⌈D/24⌉ when open; a grace end at g hours is on day ⌊g/24⌋ + 1):
    //   A recovered, D 156 (day 7), no grace          B recovered, D 180 (day 8), no grace
    //   C recovered, D 156 (day 7), grace end 145 h: day 7, the message day of stratum 7
    //   D recovered, D 132 (day 6), grace end 168 h: day 8, a neighbour in stratum 7 (after D's last day)
    //   E recovered, D 228 (day 10), grace end unknown: in no stratum
    //   F expired, D 720 (day 31), grace end 228 h: day 10, in stratum 10 only
    //   G recovered, D 492 (day 21), no grace        H recovered, D 252 (day 11), no grace
    //   I open, D 217 (days 1–10), no grace          J recovered, D 516 (day 22), grace end 577 h: day 25
    // Strata (R_m, T_m; R_c, T_c), each left by the episodes whose grace end is on one of its three days:
    //   7 {6, 7, 8}, without C, D, E: A m 1 of 1, c 0 of 1 (day 6); B m 0 of 1, c 1 of 2 (recovers on 8);
    //     F, G, H, I, J at risk on all three: m 0 of 5, c 0 of 10.            → (1, 7; 1, 13), T = 20
    //   10 {9, 10, 11}, without E, F (A, B, C, D ended before day 9): G, J m 0 of 2, c 0 of 4;
    //     H m 0 of 1, c 1 of 2 (recovers on 11); I at risk on 9 and 10: m 0 of 1, c 0 of 1.  → (0, 4; 1, 7), T = 11
    //   13 {12, 13, 14}: F, G, J.                                            → (0, 3; 0, 6), T = 9
    //   21 {20, 21, 22}: F m 0 of 1, c 0 of 2; G m 1 of 1, c 0 of 1 (day 20); J m 0 of 1, c 1 of 2 (recovers
    //     on 22; its grace end, day 25, is in stratum 25).                    → (1, 3; 1, 5), T = 8
    //   25 {24, 25, 26} and 29 {28, 29, 30}: F alone.                        → (0, 1; 0, 2), T = 3 each
    //   36 … 56: nobody at risk (T = 0, no stratum counts).
    // Band 2, Mantel–Haenszel over 7, 10, 13:
    //   Σ R_m·T_c/T = 1·13/20 = 13/20; Σ R_c·T_m/T = 1·7/20 + 1·4/11 = 157/220; RR = 143/157 = 0.910828;
    //   Σ T_m·T_c·(R_m + R_c)/T² = 7·13·2/400 + 4·7·1/121 = 16611/24200;
    //   Var(ln RR) = (16611/24200) / (13/20 · 157/220) = 33222/22451 = 1.479756;
    //   exp(ln RR ± z·√Var) = exp(−0.093401 ± 2.384202) = 0.083944, 9.882854;
    //   hazards 1/14 = 0.071429 and 2/26 = 0.076923.
    // Band 3 over 21, 25, 29: RR = (1·5/8) / (1·3/8) = 5/3; Var = (3·5·2/64) / (5/8 · 3/8) = 2;
    //   exp(0.510826 ± 2.771808) = 0.104248, 26.645846; hazards 1/5 and 1/9.
    // Band 4: nobody at risk on its strata, every cell empty.
    // (all) over the six strata of bands 2 and 3: RR = (13/20 + 5/8) / (157/220 + 3/8) = (51/40) / (479/440)
    //   = 561/479 = 1.171190; Var = (16611/24200 + 15/32) / (51/40 · 479/440) = 74546/89573 = 0.832237;
    //   exp(0.158020 ± 1.788017) = 0.195930, 7.000892; hazards 2/19 = 0.105263 and 3/35 = 0.085714.
    @Test func strataLeaveOutTheEpisodesWhoseGraceEndsOnTheirDays() throws {
        let start = T.march1
        let episodes = [
            episode("A", start: start, .recovered, after: 156 * h),
            episode("B", start: start, .recovered, after: 180 * h),
            episode("C", start: start, .recovered, after: 156 * h, grace: start + 145 * h),
            episode("D", start: start, .recovered, after: 132 * h, grace: start + 168 * h),
            episode("E", start: start, .recovered, after: 228 * h, grace: .some(nil)),
            episode("F", start: start, .expired, after: 720 * h, grace: start + 228 * h),
            episode("G", start: start, .recovered, after: 492 * h),
            episode("H", start: start, .recovered, after: 252 * h),
            episode("I", start: Self.asOf - 217 * h, .open),
            episode("J", start: start, .recovered, after: 516 * h, grace: start + 577 * h),
        ]
        let figures = MessageBands.figures(episodes: episodes.shuffled(), asOf: Self.asOf, schedule: .standard)
        #expect(figures[0].dayComparison == nil)
        let band2 = try #require(figures[1].dayComparison)
        let band3 = try #require(figures[2].dayComparison)
        let band4 = try #require(figures[3].dayComparison)
        func stratum(_ day: Int, _ rm: Int, _ tm: Int, _ rc: Int, _ tc: Int) -> MessageBands.Stratum {
            MessageBands.Stratum(
                messageDay: day, messageDayCounts: EventRate(events: rm, atRisk: tm),
                otherDayCounts: EventRate(events: rc, atRisk: tc))
        }
        #expect(band2.strata == [stratum(7, 1, 7, 1, 13), stratum(10, 0, 4, 1, 7), stratum(13, 0, 3, 0, 6)])
        #expect(band3.strata == [stratum(21, 1, 3, 1, 5), stratum(25, 0, 1, 0, 2), stratum(29, 0, 1, 0, 2)])
        #expect(band4.strata == [36, 41, 46, 51, 56].map { stratum($0, 0, 0, 0, 0) })
        #expect(band2.messageDayCounts == EventRate(events: 1, atRisk: 14))
        #expect(band2.otherDayCounts == EventRate(events: 2, atRisk: 26))

        let z = ConfidenceInterval.z
        let ratio2 = try #require(band2.hazardRatio.ratio)
        #expect(abs(ratio2 - 143.0 / 157.0) < 1e-12)
        let interval2 = try #require(band2.hazardRatio.interval)
        #expect(abs(interval2.low - 143.0 / 157.0 * exp(-z * (33222.0 / 22451.0).squareRoot())) < 1e-12)
        #expect(abs(interval2.high - 143.0 / 157.0 * exp(z * (33222.0 / 22451.0).squareRoot())) < 1e-12)
        #expect(cells(band2.hazardRatio) == ["0.071429", "0.076923", "0.910828", "0.083944", "9.882854"])
        #expect(cells(band3.hazardRatio) == ["0.200000", "0.111111", "1.666667", "0.104248", "26.645846"])
        #expect(cells(band4.hazardRatio) == ["", "", "", "", ""])

        let pooled = try #require(MessageBands.pooled(figures))
        let ratio = try #require(pooled.ratio)
        #expect(abs(ratio - 561.0 / 479.0) < 1e-12)
        let interval = try #require(pooled.interval)
        #expect(abs(interval.low - 561.0 / 479.0 * exp(-z * (74546.0 / 89573.0).squareRoot())) < 1e-12)
        #expect(abs(interval.high - 561.0 / 479.0 * exp(z * (74546.0 / 89573.0).squareRoot())) < 1e-12)
        #expect(cells(pooled) == ["0.105263", "0.085714", "1.171190", "0.195930", "7.000892"])
    }

    // Band 1 of "1-6 48h" has messages on days 1, 3 and 5: strata 3 {2, 3, 4} and 5 {4, 5, 6} share day 4.
    //   P recovered, D 84 h (day 4), no grace: stratum 3 m 0 of 1, c 1 of 2; stratum 5 c 1 of 1 (day 4 only).
    //   Q expired, D 200 h (day 9), grace end 80 h (day 4): left out of both strata.
    //   R recovered, D 100 h (day 5), no grace: stratum 3 m 0 of 1, c 0 of 2; stratum 5 m 1 of 1, c 0 of 1.
    //   Stratum 3: (R_m, T_m; R_c, T_c) = (0, 2; 1, 4), T = 6; stratum 5: (1, 1; 1, 2), T = 3.
    //   P's one recovery on day 4 counts in both: Σ R_c = 2.
    //   RR = (0 + 1·2/3) / (1·2/6 + 1·1/3) = 1; Var = (2·4·1/36 + 1·2·2/9) / (2/3 · 2/3) = 3/2;
    //   exp(0 ± z·√1.5) = 0.090677, 11.028202; hazards 1/3 and 2/6.
    @Test func aDayNeighbouringTwoMessageDaysCountsInBoth() throws {
        let schedule = try MessageSchedule.parse("1-6 48h\n7-60 24h")
        let start = T.march1
        let episodes = [
            episode("P", start: start, .recovered, after: 84 * h),
            episode("Q", start: start, .expired, after: 200 * h, grace: start + 80 * h),
            episode("R", start: start, .recovered, after: 100 * h),
        ]
        let figures = MessageBands.figures(episodes: episodes, asOf: Self.asOf, schedule: schedule)
        #expect(figures[1].dayComparison == nil)
        let band1 = try #require(figures[0].dayComparison)
        #expect(
            band1.strata == [
                MessageBands.Stratum(
                    messageDay: 3, messageDayCounts: EventRate(events: 0, atRisk: 2),
                    otherDayCounts: EventRate(events: 1, atRisk: 4)),
                MessageBands.Stratum(
                    messageDay: 5, messageDayCounts: EventRate(events: 1, atRisk: 1),
                    otherDayCounts: EventRate(events: 1, atRisk: 2)),
            ])
        #expect(cells(band1.hazardRatio) == ["0.333333", "0.333333", "1.000000", "0.090677", "11.028202"])
        #expect(try #require(MessageBands.pooled(figures)) == band1.hazardRatio)
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
