import Analysis
import Reports
import TestSupport
import Testing

@Suite struct RetryDaysTableTests {
    static let asOf = T.may1
    let h = T.hour
    let t0 = T.march1

    /// Day d is [t0 + (d−1)·24 h, t0 + d·24 h). An ended episode of duration D is at risk on days 1…⌊D/24 h⌋ + 1
    /// and recovers on the last; an open one on the days with D > (d−1)·24 h.
    var episodes: [Episode] {
        [
            // Ended at 0 h: day 1 only, recovers on day 1.
            episode("A", start: t0, .recovered, after: 0),
            // 30 h: days 1–2, recovers on day 2.
            episode("B", start: t0, .recovered, after: 30 * h),
            // Expired at exactly 48 h: days 1–3 (48 h is day 3's first instant), no recovery.
            episode("C", start: t0, .expired, after: 48 * h),
            // Open for exactly 48 h: 48 > 0 and 48 > 24 but not 48 > 48: days 1–2.
            episode("D", start: Self.asOf - 48 * h, .open),
            // Open for 49 h: days 1–3.
            episode("E", start: Self.asOf - 49 * h, .open),
            // Grace end at 26 h is on day 2 (⌊26/24⌋ + 1): counted on days 1 and 3, recovers on day 3 (50 h).
            episode("F", start: t0, .recovered, after: 50 * h, grace: t0 + 26 * h),
            // Grace end at 40 h and recovery at 36 h both on day 2: counted on day 1 only, its recovery nowhere.
            episode("G", start: t0, .recovered, after: 36 * h, grace: t0 + 40 * h),
            // Grace end unknown: left out altogether.
            episode("H", start: t0, .recovered, after: 10 * h, grace: .some(nil)),
            // Expired at 60 days: days 1–61, the table stops at day 60.
            episode("I", start: t0, .expired, after: 60 * T.day),
            // Recovered at 59 days + 1 h: days 1–60, recovers on day 60.
            episode("J", start: t0, .recovered, after: 59 * T.day + h),
            // Recovered at 60 days + 10 h, on day 61: at risk on every day of the table, its recovery in none.
            episode("K", start: t0, .recovered, after: 60 * T.day + 10 * h),
            // Open for 0 h: at risk on no day.
            episode("L", start: Self.asOf, .open),
        ]
    }

    // at_risk / recoveries:
    //   day 1: A B C D E F G I J K = 10 / A = 1
    //   day 2: B C D E I J K = 7 (F and G hold their grace end there) / B = 1 (G's recovery is left out)
    //   day 3: C E F I J K = 6 / F = 1
    //   days 4–59: I J K = 3 / 0;  day 60: I J K = 3 / J = 1
    // Wilson: 1 of 10 → 0.017876, 0.404150; 1 of 7 → 0.025680, 0.513128; 1 of 6 → 0.030053, 0.563503;
    //   0 of 3 → 0, z²/(3 + z²) = 3.841459/6.841459 = 0.561497; 1 of 3 → 0.061492, 0.792340.
    // Message days of the default schedule: offsets 0, 24, 48 h → days 1–3; 72 h → 4, 144 h → 7, …, 1320 h → 56.
    @Test func lifeTableByHand() {
        let table = RetryDays.table(RetryDays.lifeTable(episodes: episodes.shuffled(), asOf: Self.asOf))
        #expect(table.name == "retry_days.csv")
        #expect(
            table.columns == ["day", "message_day", "at_risk", "recoveries", "hazard", "hazard_low", "hazard_high"])
        let rows = lines(table)
        #expect(rows.count == 60)
        #expect(
            Array(rows.prefix(5)) == [
                "1,true,10,1,0.100000,0.017876,0.404150",
                "2,true,7,1,0.142857,0.025680,0.513128",
                "3,true,6,1,0.166667,0.030053,0.563503",
                "4,true,3,0,0.000000,0.000000,0.561497",
                "5,false,3,0,0.000000,0.000000,0.561497",
            ])
        #expect(rows[55] == "56,true,3,0,0.000000,0.000000,0.561497")
        #expect(rows[58] == "59,false,3,0,0.000000,0.000000,0.561497")
        #expect(rows[59] == "60,false,3,1,0.333333,0.061492,0.792340")
    }

    @Test func nobodyAtRiskLeavesTheHazardEmpty() {
        let rows = lines(RetryDays.table(RetryDays.lifeTable(episodes: [], asOf: Self.asOf)))
        #expect(rows.count == 60)
        #expect(rows.first == "1,true,0,0,,,")
        #expect(rows.last == "60,false,0,0,,,")
    }
}
