import Analysis
import Testing
import TestSupport

@Suite struct MessageBandsTests {
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
    // band 3 [384,720h) msgs 384,480,576,672; band 4 [720,1440h) msgs 720…1320. A message at m is sent if D > m;
    // the 24 h window after m is [m, m+24h).
    //
    // Band 1: entering 5. messages 3 each = 15. exposure 50+72+72+72+72 = 338 h = 14.0833 d.
    //   Windows cover all of it (interval 24 h): 338 h → expected 1. Recoveries: E1 (50 h; latest msg 48, 2 h
    //   after) within → share 1/1. hazard 1/14.083333 = 0.071006. per 1000 msgs 1000·1/15 = 66.67. lift 1/1 = 1.
    // Band 2: entering E2..E5 = 4. messages E2 {72} 1, E3 {72} 1, E4 5, E5 5 = 12.
    //   exposure (100−72)+(130−72)+312+312 = 28+58+312+312 = 710 h = 29.5833 d.
    //   windows E2 [72,96) 24, E3 24, E4 5·24 = 120, E5 120 → 288 h; expected 288/710 = 0.405634.
    //   Recoveries: E3 (130 h; latest msg 72, 58 h after) not within → share 0/1 = 0, lift 0.
    //   hazard 1/29.583333 = 0.033803; per 1000 msgs 1000/12 = 83.33.
    // Band 3: entering E4 (400), E5 (480) = 2. messages E4 {384} 1, E5 {384} 1 (480 is not < 480) = 2.
    //   exposure 16 + 96 = 112 h = 4.6667 d. windows E4 [384,400) 16, E5 [384,408) 24 → 40 h;
    //   expected 40/112 = 0.357143. Recoveries: E5, latest scheduled msg ≤ 480 h is 480 → 0 h after → within:
    //   share 1; lift 1/0.357143 = 2.8. hazard 1/4.666667 = 0.214286; per 1000 = 500.
    // Band 4: nobody enters: exposure 0, every ratio empty.
    // Total: entering 5; messages 15+12+2 = 29; recoveries 3; exposure 338+710+112 = 1160 h = 48.3333 d;
    //   windows 338+288+40 = 666 h → expected 666/1160 = 0.574138; within 2 of 3 → 0.666667;
    //   lift (2/3)/(666/1160) = 2320/1998 = 1.161161; hazard 3/48.333333 = 0.062069; per 1000 = 3000/29 = 103.45.
    @Test func bandFiguresByHand() {
        let table = MessageBands.table(episodes: episodes, asOf: Self.asOf)
        #expect(table.name == "message_bands.csv")
        #expect(
            table.columns == [
                "band", "first_day", "last_day", "interval_hours", "episodes_entering", "messages", "recoveries",
                "exposure_days", "hazard_per_day", "recoveries_per_1000_messages", "share_within_24h_of_message",
                "expected_share", "lift",
            ])
        #expect(
            lines(table) == [
                "1,1,3,24,5,15,1,14.0833,0.071006,66.67,1.000000,1.000000,1.000000",
                "2,4,16,72,4,12,1,29.5833,0.033803,83.33,0.000000,0.405634,0.000000",
                "3,17,30,96,2,2,1,4.6667,0.214286,500.00,1.000000,0.357143,2.800000",
                "4,31,60,120,0,0,0,0.0000,,,,,",
                "(all),1,60,,5,29,3,48.3333,0.062069,103.45,0.666667,0.574138,1.161161",
            ])
    }

    @Test func recoveryAtBandStartBelongsToThatBand() {
        // D = 72 h exactly: band 2 = [72 h, 384 h) holds it, though the episode never entered band 2 (72 is not
        // > 72) and its message at 72 h was not sent. Latest scheduled message ≤ 72 h is 72 → within 24 h.
        let figures = MessageBands.figures(
            episodes: [episode("x", start: T.march1, .recovered, after: 72 * h)], asOf: Self.asOf,
            schedule: .standard)
        #expect(figures.map(\.recoveries) == [0, 1, 0, 0])
        #expect(figures.map(\.episodesEntering) == [1, 0, 0, 0])
        #expect(figures[1].messages == 0)
        #expect(figures[1].recoveriesWithin24h == 1)
        // Zero exposure in band 2: hazard and expected share undefined, so is lift.
        #expect(figures[1].hazardPerDay == nil)
        #expect(figures[1].lift == nil)
    }

    @Test func recoveryAfterTheLastBandIsInNoBand() {
        let figures = MessageBands.figures(
            episodes: [episode("x", start: T.march1, .recovered, after: 1440 * h)], asOf: Self.asOf,
            schedule: .standard)
        #expect(figures.map(\.recoveries) == [0, 0, 0, 0])
        #expect(figures.map(\.messages) == [3, 5, 4, 6])
        // Whole schedule exposed: 1440 h; windows 3·24 + 5·24 + 4·24 + 6·24 = 432 h.
        #expect(figures.map(\.exposure).reduce(0, +) == 1440 * h)
        #expect(figures.map(\.windowExposure).reduce(0, +) == 432 * h)
    }

    @Test func intervalsShorterThanADayLeaveNoTimeOutsideAWindow() throws {
        // One band, days 1–2, a message every 12 h: 0, 12, 24, 36. D = 30 h: messages 0, 12, 24 → 3;
        // windows [0,12) [12,24) [24,36)∩[0,30) = 12+12+6 = 30 h = all the exposure → expected 1.
        let schedule = try MessageSchedule.parse("1-2 12h")
        let figures = MessageBands.figures(
            episodes: [episode("x", start: T.march1, .expired, after: 30 * h)], asOf: Self.asOf, schedule: schedule)
        #expect(figures.count == 1)
        #expect(figures[0].messages == 3)
        #expect(figures[0].exposure == 30 * h)
        #expect(figures[0].expectedShare == 1)
    }

    @Test func emptyScope() {
        #expect(
            lines(MessageBands.table(episodes: [], asOf: Self.asOf)) == [
                "1,1,3,24,0,0,0,0.0000,,,,,",
                "2,4,16,72,0,0,0,0.0000,,,,,",
                "3,17,30,96,0,0,0,0.0000,,,,,",
                "4,31,60,120,0,0,0,0.0000,,,,,",
                "(all),1,60,,0,0,0,0.0000,,,,,",
            ])
    }
}
