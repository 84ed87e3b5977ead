import Analysis
import Reports
import Testing
import TestSupport

@Suite struct CohortMaturityTests {
    @Test func monthIsTooYoungUntilSixtyDaysAfterItsEnd() {
        let april = CalendarPeriod(.month, containing: T.april1 + 10 * T.day)
        #expect(april.end == T.may1)
        let judgeable = T.may1 + 60 * T.day  // 2024-06-30T00:00:00Z
        #expect(CohortMaturity.judgeableFrom(april) == judgeable)
        #expect(CohortMaturity.isTooYoung(april, asOf: judgeable - 1))
        #expect(!CohortMaturity.isTooYoung(april, asOf: judgeable))
        #expect(!CohortMaturity.isTooYoung(april, asOf: T.july1))
        // A cohort still running, or in the future, is too young.
        #expect(CohortMaturity.isTooYoung(april, asOf: T.april1 + 5 * T.day))
        #expect(CohortMaturity.isTooYoung(april, asOf: T.march1))
    }

    @Test func weekIsTooYoungUntilSixtyDaysAfterItsSunday() {
        // 2024-W14 is Monday 2024-04-01 to Sunday 2024-04-07.
        let week = CalendarPeriod(.week, containing: T.april1 + 3 * T.day)
        #expect(week.description == "2024-W14")
        #expect(week.start == T.april1)
        #expect(week.end == T.april1 + 7 * T.day)
        #expect(CohortMaturity.isTooYoung(week, asOf: week.end + 60 * T.day - 1))
        #expect(!CohortMaturity.isTooYoung(week, asOf: week.end + 60 * T.day))
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

    @Test func summaryMarksYoungCohortsOnly() throws {
        let summary = SummaryDocument(report: Sample.report()).markdown
        // As of 2024-07-01: March and April (ended 2024-05-01, judgeable from 2024-06-30) are judged.
        #expect(summary.contains("| 2024-03 | 4 | 2 | 1 | 0 | 0 | 1 | 66.7% |  |"))
        #expect(summary.contains("| 2024-04 | 4 | 2 | 0 | 1 | 1 | 0 | 50.0% |  |"))
        #expect(summary.contains("| 2024-05 | 2 | 0 | 0 | 1 | 0 | 1 | 0.0% | too young to judge |"))
        #expect(summary.contains("| 2024-06 | 2 | 1 | 0 | 0 | 0 | 1 | 100.0% | too young to judge |"))
        let report = Sample.report()
        #expect(report.cohorts.map(\.isTooYoung) == [false, false, true, true])

        // One millisecond before 2024-06-30, April is still too young.
        let earlier = Report(dataset: Sample.dataset(asOf: T.may1 + 60 * T.day - 1))
        #expect(earlier.cohorts.map(\.period.description) == ["2024-03", "2024-04", "2024-05", "2024-06"])
        #expect(earlier.cohorts.map(\.isTooYoung) == [false, true, true, true])
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
