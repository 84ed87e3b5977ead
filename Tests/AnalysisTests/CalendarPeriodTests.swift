import Analysis
import CivilTime
import Foundation
import TestSupport
import Testing

@Suite struct CalendarPeriodTests {
    @Test(arguments: [
        (Int64(0), "1970-01", "1970-W01"),
        (-1, "1969-12", "1970-W01"),  // Wednesday 1969-12-31 belongs to the week of Thursday 1970-01-01
        (1_609_675_200_000, "2021-01", "2020-W53"),  // Sunday 2021-01-03
        (1_735_516_800_000, "2024-12", "2025-W01"),  // Monday 2024-12-30
        (1_709_251_200_000, "2024-03", "2024-W09"),  // Friday 2024-03-01
        (1_709_251_199_999, "2024-02", "2024-W09"),  // the last millisecond of leap day 2024-02-29
        (1_767_225_600_000, "2026-01", "2026-W01"),  // Thursday 2026-01-01
        (1_262_476_800_000, "2010-01", "2009-W53"),  // Sunday 2010-01-03
        (951_868_800_000, "2000-03", "2000-W09"),  // 2000 is a leap year
    ])
    func labels(millis: Int64, month: String, week: String) {
        #expect(CalendarPeriod(.month, containing: millis).description == month)
        #expect(CalendarPeriod(.week, containing: millis).description == week)
    }

    /// Years 0–9999 are written digit by digit, the others by the general form: both give four digits at least.
    @Test(arguments: [
        (1, "0001-06"), (9, "0009-06"), (999, "0999-06"), (1000, "1000-06"), (9999, "9999-06"), (10000, "10000-06"),
        (-1, "-0001-06"),
    ])
    func labelsOfFarYears(year: Int, month: String) {
        let millis = Int64(CivilDate(year: year, month: 6, day: 1).daysSinceEpoch) * T.day + 12 * T.hour
        #expect(CalendarPeriod(.month, containing: millis).description == month)
        let week = CalendarPeriod(.week, containing: millis)
        #expect(week.year == year && (22...23).contains(week.number))
        #expect(week.description == week.year.zeroPadded(width: 4) + "-W" + week.number.zeroPadded(width: 2))
    }

    @Test func agreesWithFoundationOnEveryDayFrom1990To2040() throws {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let first = CalendarPeriodTests.millis(1990, 1, 1)
        let last = CalendarPeriodTests.millis(2040, 12, 31)
        #expect(first == 631_152_000_000 && last == 2_240_524_800_000)
        for millis in stride(from: first, through: last, by: Int(T.day)) {
            // Noon, and the last millisecond of the day.
            for instant in [millis + 12 * T.hour, millis + T.day - 1] {
                let date = Date(timeIntervalSince1970: Double(instant) / 1000)
                let parts = calendar.dateComponents([.year, .month, .yearForWeekOfYear, .weekOfYear], from: date)
                let month = CalendarPeriod(.month, containing: instant)
                let week = CalendarPeriod(.week, containing: instant)
                #expect(month.year == parts.year && month.number == parts.month)
                #expect(week.year == parts.yearForWeekOfYear && week.number == parts.weekOfYear)
            }
        }
    }

    @Test func ordersChronologically() {
        let periods = [T.may1, T.march1 - 1, T.april1, 0].map { CalendarPeriod(monthContaining: $0) }
        #expect(periods.sorted().map(\.description) == ["1970-01", "2024-02", "2024-04", "2024-05"])
    }

    static func millis(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        var parts = DateComponents()
        (parts.year, parts.month, parts.day) = (year, month, day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let date = calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)
        return Int64(date.timeIntervalSince1970 * 1000)
    }
}
