import Analysis
import Reports
import TestSupport
import Testing

@Suite struct CohortMaturityTests {
    static func episode(_ subscription: String, start: Int64, outcome: Episode.Outcome = .recovered) -> Episode {
        Episode(
            subscription: subscription, start: start, end: outcome == .open ? nil : start + T.day, outcome: outcome,
            openingNotificationUUID: subscription)
    }

    @Test func groupIsMatureWhenAllItsEpisodesAre() {
        let early = Self.episode("A", start: T.april1)
        let late = Self.episode("B", start: T.april1 + 20 * T.day, outcome: .open)
        let matureFrom = T.april1 + 20 * T.day + 61 * T.day
        var group = EpisodeGroup([early, late], asOf: matureFrom - 1)
        #expect(group.matureFrom == matureFrom)
        #expect(group.mature.episodes == 1)
        #expect(!group.isMature)
        group = EpisodeGroup([early, late], asOf: matureFrom)
        #expect(group.mature.episodes == 2)
        #expect(group.isMature)
        // An empty group is not mature and has no date.
        #expect(!EpisodeGroup().isMature)
        #expect(EpisodeGroup().matureFrom == nil)
    }

    @Test func weekCohortsFollowTheirEpisodesNotTheirCalendar() {
        // 2024-W14 is Monday 2024-04-01 to Sunday 2024-04-07; its only episode started on its Monday.
        let week = CalendarPeriod(.week, containing: T.april1 + 3 * T.day)
        #expect(week.description == "2024-W14")
        let dataset = EpisodeDataset(asOf: T.april1 + 61 * T.day, episodes: [Self.episode("A", start: T.april1)])
        let report = Report(dataset: dataset, options: .init(granularity: .week))
        #expect(report.cohorts.map(\.period) == [week])
        #expect(report.cohorts.map(\.figures.isMature) == [true])
    }

    @Test(arguments: [
        // (a day inside, granularity, start, end) as UTC dates.
        ("2024-12-15", CalendarPeriod.Granularity.month, "2024-12-01", "2025-01-01"),
        ("2024-02-29", .month, "2024-02-01", "2024-03-01"),
        ("2021-01-03", .week, "2020-12-28", "2021-01-04"),  // 2020-W53
        ("2025-12-31", .week, "2025-12-29", "2026-01-05"),  // 2026-W01
        ("2024-01-01", .week, "2024-01-01", "2024-01-08"),  // 2024-W01 starts on New Year's Day
        ("1969-12-31", .month, "1969-12-01", "1970-01-01"),
    ])
    func periodBounds(inside: String, granularity: CalendarPeriod.Granularity, start: String, end: String) throws {
        let millis = try #require(Self.millis(inside))
        let period = CalendarPeriod(granularity, containing: millis + 12 * T.hour)
        #expect(UTCTime.date(period.start) == start)
        #expect(UTCTime.date(period.end) == end)
        #expect(CalendarPeriod(granularity, containing: period.start) == period)
        #expect(CalendarPeriod(granularity, containing: period.end - 1) == period)
        #expect(CalendarPeriod(granularity, containing: period.end) != period)
    }

    @Test func summaryMarksCohortsNotYetMature() throws {
        // The data hold 8 days of notifications signed after the as-of time: mature cohorts are final.
        let summary = SummaryDocument(report: Sample.report(latestSignedDate: Sample.asOf + 8 * T.day)).markdown
        // As of 2024-07-01 every March and April episode is mature (S06, the latest, from 2024-06-25); S03 expired
        // and S10 ended expired at day 60 by inference.
        #expect(summary.contains("| 2024-03 | 4 | 0 | 4 | 50.0% (15.0%–85.0%) | 50.0% (15.0%–85.0%) | 50.0% | final |"))
        #expect(summary.contains("| 2024-04 | 4 | 0 | 4 | 50.0% (15.0%–85.0%) | 0.0% (0.0%–49.0%) | 50.0% | final |"))
        // May's last episode (S08, t0 2024-05-20) matures on 2024-07-20, and 7 days of later notifications can be
        // loaded from 2024-07-27; June's are not mature at all (S09, t0 2024-06-20: 2024-08-20, then 2024-08-27).
        #expect(
            summary.contains("| 2024-05 | 2 | 1 | 0 | n/a | n/a | 0.0% | still changing (final on 2024-07-27) |"))
        #expect(
            summary.contains("| 2024-06 | 2 | 1 | 0 | n/a | n/a | 100.0% | still changing (final on 2024-08-27) |"))
        #expect(!summary.contains("too young"))
        let report = Sample.report()
        #expect(report.cohorts.map(\.figures.isMature) == [true, true, false, false])

        // One millisecond before S06 matures, April is still changing.
        let aprilFinal = T.april1 + 24 * T.day + 61 * T.day
        let earlier = Report(dataset: Sample.dataset(asOf: aprilFinal - 1))
        #expect(earlier.cohorts.map(\.period.description) == ["2024-03", "2024-04", "2024-05", "2024-06"])
        #expect(earlier.cohorts.map(\.figures.isMature) == [true, false, false, false])
        #expect(Report(dataset: Sample.dataset(asOf: aprilFinal)).cohorts.map(\.figures.isMature)[1])
    }

    /// `YYYY-MM-DD` at midnight UTC, by counting days from a known date.
    static func millis(_ date: String) -> Int64? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        // Search a day at a time around 1970 .. 2030: small and obviously right.
        var day: Int64 = -366
        while day < 366 * 60 {
            if UTCTime.date(day * T.day) == date { return day * T.day }
            day += 1
        }
        return nil
    }
}
