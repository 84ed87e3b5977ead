import CivilTime
import Foundation
import Testing

@Suite struct CivilDateTests {
    @Test(arguments: [
        (0, 1970, 1, 1), (-1, 1969, 12, 31), (59, 1970, 3, 1), (10_957, 2000, 1, 1), (11_016, 2000, 2, 29),
        (19_782, 2024, 2, 29), (-719_162, 1, 1, 1), (2_932_896, 9999, 12, 31), (-719_528, 0, 1, 1),
    ])
    func knownDays(days: Int, year: Int, month: Int, day: Int) {
        let date = CivilDate(year: year, month: month, day: day)
        #expect(CivilDate(daysSinceEpoch: days) == date)
        #expect(date.daysSinceEpoch == days)
    }

    /// Every day from 1900 to 2100 agrees with Foundation's Gregorian calendar in UTC and round-trips.
    @Test func agreesWithFoundationFrom1900To2100() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for days in -25_567...47_482 {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            let components = calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400)
            )
            guard components.year != date.year || components.month != date.month || components.day != date.day else {
                continue
            }
            Issue.record("day \(days): \(date) but Foundation says \(components)")
            return
        }
    }

    @Test(arguments: [
        (Int64(0), 0, Int64(0)), (86_399_999, 0, 86_399_999), (86_400_000, 1, 0), (-1, -1, 86_399_999),
        (-86_400_000, -1, 0), (-86_400_001, -2, 86_399_999),
    ])
    func splitsInstantsByFlooredDivision(milliseconds: Int64, days: Int, millisecondOfDay: Int64) {
        let split = CivilDate.split(unixMilliseconds: milliseconds)
        #expect(split.daysSinceEpoch == days)
        #expect(split.millisecondOfDay == millisecondOfDay)
    }

    @Test func daysInMonthFollowsTheLeapYearRule() {
        #expect(CivilDate.daysInMonth(year: 2024, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 2023, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 1900, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2000, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 2023, month: 4) == 30)
        #expect(CivilDate.daysInMonth(year: 2023, month: 12) == 31)
    }

    @Test func parsesDatesThatExist() {
        #expect(CivilDate(parsing: "2024-02-29") == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate(parsing: "2024-02-29")?.unixMilliseconds == 1_709_164_800_000)
    }

    @Test(arguments: [
        "2023-02-29", "2024-13-01", "2024-00-10", "2024-01-00", "2024-1-01", "24-01-01", "2024-01-01x",
        "+024-01-01", "2024/01/01", "", "2024-01", "２０２４-01-01",
    ])
    func refusesAnythingElse(text: String) {
        #expect(CivilDate(parsing: text) == nil)
    }
}
