import Analysis
import Reports
import Testing

/// `--from`/`--to` values and the grace length `--group-by grace-length` uses.
@Suite struct CalendarSpanTests {
    static let day: Int64 = 86_400_000

    @Test(arguments: [
        ("2024-03-05", "2024-03-05T00:00:00Z", "2024-03-06T00:00:00Z"),
        ("2024-02-29", "2024-02-29T00:00:00Z", "2024-03-01T00:00:00Z"),
        ("2024-03", "2024-03-01T00:00:00Z", "2024-04-01T00:00:00Z"),
        ("2023-12", "2023-12-01T00:00:00Z", "2024-01-01T00:00:00Z"),
        ("2024-W01", "2024-01-01T00:00:00Z", "2024-01-08T00:00:00Z"),
        ("2021-W01", "2021-01-04T00:00:00Z", "2021-01-11T00:00:00Z"),
        ("2020-W53", "2020-12-28T00:00:00Z", "2021-01-04T00:00:00Z"),
    ])
    func readsDaysMonthsAndWeeks(_ text: String, _ start: String, _ end: String) throws {
        let span = try #require(CalendarPeriod.span(named: text))
        #expect(UTCTime.timestamp(span.lowerBound) == start)
        #expect(UTCTime.timestamp(span.upperBound) == end)
    }

    @Test(arguments: [
        "2023-02-29", "2024-13", "2024-00", "2021-W53", "2024-W00", "2024-3", "24-03", "2024-03-5", "2024-W1", "",
        "2024-03-05T00:00:00Z", "２０２４-03", "2024-+3", "x'; DROP TABLE notifications; --",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(CalendarPeriod.span(named: text) == nil)
    }

    @Test(arguments: [
        (16 * day, 16), (16 * day - 3_600_000, 16), (15 * day + day / 2, 16), (15 * day + day / 2 - 1, 15),
        (3 * day, 3), (28 * day + 1, 28), (0, 0), (-(day / 2), 0), (-(day / 2) - 1, -1),
    ])
    func graceLengthIsRoundedToWholeDays(_ length: Int64, _ days: Int) {
        let episode = Episode(
            subscription: "s", start: 1_700_000_000_000, hasGrace: true, graceEnd: 1_700_000_000_000 + length,
            outcome: .open, openingNotificationUUID: "u"
        )
        #expect(episode.graceDays == days)
    }

    @Test func noGraceOrAnUnknownEndHasNoLength() {
        let none = Episode(subscription: "s", start: 0, outcome: .open, openingNotificationUUID: "u")
        #expect(none.graceDays == nil)
        let grace = EpisodeGrouping.graceLength
        #expect(grace.cells(grace.value(of: none), typed: false) == [.text("none")])
        #expect(grace.cells(grace.value(of: none), typed: true) == [.boolean(false), .empty])
        var unknown = none
        unknown.hasGrace = true
        #expect(unknown.graceDays == nil)
        #expect(grace.cells(grace.value(of: unknown), typed: false) == [.text("unknown")])
        #expect(grace.cells(grace.value(of: unknown), typed: true) == [.boolean(true), .empty])
    }
}
