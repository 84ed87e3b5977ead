import Analysis
import TestSupport
import Testing

@Suite struct MessageScheduleTests {
    static let malformed =
        "message schedule, line 1: expected \"<first_day>-<last_day> <interval_hours>h\" such as \"4-16 72h\", found "
    @Test func standardScheduleMatchesTheMetricsTable() {
        let bands = MessageSchedule.standard.bands
        #expect(bands.map(\.number) == [1, 2, 3, 4])
        #expect(
            bands.map { [$0.firstDay, $0.lastDay, $0.intervalHours] } == [
                [1, 3, 24], [4, 16, 72], [17, 30, 96], [31, 60, 120],
            ])
        #expect(bands.map { $0.start / T.hour } == [0, 72, 384, 720])
        #expect(bands.map { $0.end / T.hour } == [72, 384, 720, 1440])
        #expect(
            bands.map { $0.messageOffsets.map { $0 / T.hour } } == [
                [0, 24, 48],
                [72, 144, 216, 288, 360],
                [384, 480, 576, 672],
                [720, 840, 960, 1080, 1200, 1320],
            ])
    }

    @Test func parsesTheDocumentedFormat() throws {
        let text = """
            # days   interval
            1-3      24h
            4-16     72h   # every three days

            17-30\t96h
            31-60    120h
            """
        #expect(try MessageSchedule.parse(text) == .standard)
        #expect(try MessageSchedule.parse(MessageSchedule.standard.description) == .standard)
        #expect(MessageSchedule.standard.description == "1-3 24h\n4-16 72h\n17-30 96h\n31-60 120h\n")
    }

    @Test func acceptsWindowsLineEndingsAndACustomSchedule() throws {
        let schedule = try MessageSchedule.parse("1-7 48h\r\n8-10 24h\r\n")
        #expect(schedule.bands.map(\.lastDay) == [7, 10])
        #expect(schedule.bands[0].messageOffsets.map { $0 / T.hour } == [0, 48, 96, 144])
    }

    @Test(arguments: [
        ("", "message schedule: no bands given"),
        ("# nothing here\n\n", "message schedule: no bands given"),
        (
            "1-3 24",
            malformed + "\"1-3 24\""
        ),
        (
            "1-3 24h extra",
            malformed + "\"1-3 24h extra\""
        ),
        (
            "1to3 24h",
            malformed + "\"1to3 24h\""
        ),
        (
            "2-3 24h",
            "message schedule, line 1: the band starts at day 2, expected day 1 (the first band must start at day 1)"
        ),
        (
            "1-3 24h\n\n5-6 24h",
            "message schedule, line 3: the band starts at day 5, expected day 4 (the day after the previous band)"
        ),
        ("1-3 24h\n4-2 24h", "message schedule, line 2: the band ends at day 2, before its first day 4"),
        ("1-3 0h", "message schedule, line 1: the band has interval 0h; the interval must be at least 1h"),
        ("1-400 24h", "message schedule, line 1: the band ends at day 400; a schedule covers at most 366 days"),
    ])
    func rejectsBadDescriptions(text: String, message: String) {
        #expect {
            try MessageSchedule.parse(text)
        } throws: { error in
            (error as? AnalysisError)?.description == message
        }
    }

    @Test func throwingInitNamesTheBand() {
        #expect {
            try MessageSchedule(bands: [(1, 3, 24), (3, 5, 24)])
        } throws: { error in
            (error as? AnalysisError)?.description
                == "message schedule: band 2 starts at day 3, expected day 4 (the day after the previous band)"
        }
    }
}
