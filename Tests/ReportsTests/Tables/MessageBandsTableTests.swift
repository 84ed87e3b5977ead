import Analysis
import Reports
import TestSupport
import Testing

@Suite struct MessageBandsTableTests {
    static let asOf = T.may1
    let h = T.hour

    /// Durations in hours: E1 recovered 50, E2 expired 100, E3 recovered 130, E4 open 400 (censored at as-of),
    /// E5 recovered 480 (exactly on band 3's second message).
    var episodes: [Episode] {
        [
            episode("E1", start: T.march1, .recovered, after: 50 * h),
            episode("E2", start: T.march1, .expired, after: 100 * h),
            episode("E3", start: T.march1, .recovered, after: 130 * h),
            episode("E4", start: Self.asOf - 400 * h, .open),
            episode("E5", start: T.march1, .recovered, after: 480 * h),
        ]
    }

    // Default schedule: band 1 [0,72h) msgs 0,24,48; band 2 [72,384h) msgs 72,144,216,288,360;
    // band 3 [384,720h) msgs 384,480,576,672; band 4 [720,1440h) msgs 720…1320. A message at m is sent if D > m.
    //
    // Band 1: entering 5. messages 3 each = 15. exposure 50+72+72+72+72 = 338 h = 14.083333 d.
    //   Recoveries: E1. hazard 1/14.083333 = 0.071006. per 1000 msgs 1000·1/15 = 66.67.
    // Band 2: entering E2..E5 = 4. messages E2 {72} 1, E3 {72} 1, E4 5, E5 5 = 12.
    //   exposure (100−72)+(130−72)+312+312 = 710 h = 29.583333 d. Recoveries: E3.
    //   hazard 1/29.583333 = 0.033803; per 1000 msgs 1000/12 = 83.33.
    // Band 3: entering E4 (400), E5 (480) = 2. messages E4 {384} 1, E5 {384} 1 (480 is not < 480) = 2.
    //   exposure 16 + 96 = 112 h = 4.666667 d. Recoveries: E5. hazard 1/4.666667 = 0.214286; per 1000 = 500.
    // Band 4: nobody enters: exposure 0, every ratio empty.
    //
    // Life table (RetryDays): last day at risk ⌊D/24⌋ + 1 when ended, ⌈D/24⌉ when open:
    //   E1 day 3 (recovers), E2 day 5, E3 day 6 (recovers), E4 day 17, E5 day 21 (recovers).
    // Band 2: M = {7, 10, 13}: E4 E5 at risk on each → T_M = 6, R_M = 0.
    //   C = {6, 8, 9, 11, 12, 14}: day 6 E3 E4 E5 (E3 recovers), the others E4 E5 → T_C = 3 + 5·2 = 13, R_C = 1.
    //   message_day_hazard 0/6 = 0; other_day_hazard 1/13 = 0.076923; ratio 0 (only R_M is 0); no interval.
    // Band 3: M = {21, 25, 29}: day 21 E5 (recovers) → T_M = 1, R_M = 1. C = {20, 22, …, 30}: day 20 E5 →
    //   T_C = 1, R_C = 0. message_day_hazard 1; other_day_hazard 0; ratio undefined (its denominator is 0).
    // Band 4: nobody at risk on M_4 or C_4: both hazards undefined, so is the ratio.
    // (all), Mantel–Haenszel over bands 2–4 (band 4 has T_b = 0 and adds nothing):
    //   band 2, T = 19: R_M·T_C/T = 0, R_C·T_M/T = 6/19; band 3, T = 2: 1·1/2 = 1/2, 0.
    //   RR = (1/2) / (6/19) = 19/12 = 1.583333.
    //   Var = [6·13·1/19² + 1·1·1/2²] / [(1/2)·(6/19)] = (78/361 + 1/4) / (3/19) = 2.951754;
    //   exp(ln 1.583333 ± z·√2.951754) = exp(0.459532 ± 3.367350) = 0.054595, 45.919133.
    //   Pooled hazards: R_M/T_M = 1/7 = 0.142857, R_C/T_C = 1/14 = 0.071429.
    @Test func bandFiguresByHand() {
        let table = table(episodes)
        #expect(table.name == "message_bands.csv")
        #expect(
            table.columns == [
                "band", "first_day", "last_day", "interval_hours", "episodes_entering", "messages", "recoveries",
                "exposure_days", "hazard_per_day", "recoveries_per_1000_messages", "message_day_hazard",
                "other_day_hazard", "hazard_ratio", "hazard_ratio_low", "hazard_ratio_high",
            ])
        #expect(
            lines(table) == [
                "1,1,3,24,5,15,1,14.083333,0.071006,66.67,,,,,",
                "2,4,16,72,4,12,1,29.583333,0.033803,83.33,0.000000,0.076923,0.000000,,",
                "3,17,30,96,2,2,1,4.666667,0.214286,500.00,1.000000,0.000000,,,",
                "4,31,60,120,0,0,0,0.000000,,,,,,,",
                "(all),,,,,,,,,,0.142857,0.071429,1.583333,0.054595,45.919133",
            ])
    }

    @Test func emptyScope() {
        #expect(
            lines(table([])) == [
                "1,1,3,24,0,0,0,0.000000,,,,,,,",
                "2,4,16,72,0,0,0,0.000000,,,,,,,",
                "3,17,30,96,0,0,0,0.000000,,,,,,,",
                "4,31,60,120,0,0,0,0.000000,,,,,,,",
                "(all),,,,,,,,,,,,,,",
            ])
    }

    /// `message_bands.csv` as of ``asOf`` with the default schedule.
    private func table(_ episodes: [Episode]) -> ReportTable {
        MessageBands.table(
            MessageBands.figures(episodes: episodes, asOf: Self.asOf, schedule: .standard), schedule: .standard)
    }
}
