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
    // Strata, counted as in the life table (last day at risk ⌊D/24⌋ + 1 when ended, ⌈D/24⌉ when open):
    //   E1 day 3 (recovers), E2 day 5, E3 day 6 (recovers), E4 day 17, E5 day 21 (recovers); no grace periods.
    //   (R_m, T_m; R_c, T_c) per message day m against m − 1 and m + 1:
    //   7: E3 at risk on day 6 and recovers there, E4 and E5 on all three days → (0, 2; 1, 5), T = 7;
    //   10 and 13: E4, E5 → (0, 2; 0, 4), T = 6 each; 21: E5 on days 20 and 21, recovers on 21 → (1, 1; 0, 1),
    //   T = 2; 25, 29 and band 4's strata: nobody at risk (T = 0, they add nothing).
    // Band 2: R_m = 0 of T_m = 6; R_c = 1 of T_c = 13. message_day_hazard 0; other_day_hazard 1/13 = 0.076923;
    //   Mantel–Haenszel: Σ R_m·T_c/T = 0, Σ R_c·T_m/T = 1·2/7: ratio 0 (only its numerator is 0); no interval.
    // Band 3: R_m = 1 of 1, R_c = 0 of 1: hazards 1 and 0; Σ R_c·T_m/T = 0, so the ratio is undefined.
    // Band 4: nobody at risk on its strata: both hazards undefined, so is the ratio.
    // (all), Mantel–Haenszel over the strata of bands 2–4:
    //   numerator 1·1/2 (stratum 21) = 1/2; denominator 1·2/7 (stratum 7) = 2/7; RR = 7/4 = 1.75.
    //   Var = [2·5·1/7² + 1·1·1/2²] / [(1/2)·(2/7)] = (10/49 + 1/4) / (1/7) = 89/28 = 3.178571;
    //   exp(ln 1.75 ± z·√(89/28)) = exp(0.559616 ± 3.494331) = 0.053146, 57.624458.
    //   Pooled hazards: R_m/T_m = 1/7 = 0.142857, R_c/T_c = 1/14 = 0.071429.
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
                "(all),,,,,,,,,,0.142857,0.071429,1.750000,0.053146,57.624458",
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
