import Testing
import churn

/// Every date option's values through the one reader: the forms each option takes, what each means, and the
/// message of a value refused.
@Suite struct DateArgumentTests {
    /// 2026-11-20T00:00:00Z.
    static let day = Int64(1_795_132_800_000)
    static let dayLength = Int64(86_400_000)

    @Test(arguments: [
        ("2026-11-20", day + dayLength - 1),
        ("2026-11-20T12:00:00Z", day + 12 * 3_600_000),
        ("2026-11-20T14:00+02:00", day + 12 * 3_600_000),
        ("2026-11-20T14:00:00.1239+0200", day + 12 * 3_600_000 + 123),
        ("1795176000000", 1_795_176_000_000),
    ])
    func asOfTakesADayItsEndAnInstantOrMilliseconds(text: String, expected: Int64) throws {
        #expect(try DateArgument.asOf(text) == expected)
    }

    @Test func aRangeTakesADayFromItsStartThroughItsEnd() throws {
        let from = try DateArgument.parse("2026-11-20", option: "--from", forms: .time, day: .start)
        let to = try DateArgument.parse("2026-11-20", option: "--to", forms: .time)
        #expect(from.start == Self.day)
        #expect(to.end == Self.day + Self.dayLength)
        let instant = try DateArgument.parse("2026-11-20T12:00:00Z", option: "--to", forms: .time)
        #expect(instant.start == instant.end)
    }

    @Test func aPeriodIsADayAMonthOrAnISOWeek() throws {
        #expect(try DateArgument.parse("2026-11", option: "--from", forms: .period).start == 1_793_491_200_000)
        // ISO week 1 of 2026 starts on Monday 2025-12-29.
        #expect(try DateArgument.parse("2026-W01", option: "--from", forms: .period).start == 1_766_966_400_000)
        #expect(try DateArgument.parse("2026-11-20", option: "--to", forms: .period).end == Self.day + Self.dayLength)
    }

    @Test(arguments: [
        ("--as-of", "2026-11", DateArgument.Forms.time, "not a valid day; expected a day (2026-11-20: the end"),
        (
            "--from", "2026-11-20T12:00:00Z", DateArgument.Forms.period,
            "not a valid day, month or ISO week; expected a day (2026-03-05), a month (2026-03) or an ISO week"
        ),
        ("--start", "2026-11", DateArgument.Forms.day, "not a valid day; expected a day (2026-03-05)."),
        ("--to", "1763640000", DateArgument.Forms.time, "this looks like Unix seconds; give milliseconds"),
        ("--from", "99999999999999999999", DateArgument.Forms.time, "too large a number"),
    ])
    func aValueOutsideItsOptionsFormsIsRefusedWithThem(
        option: String, text: String, forms: DateArgument.Forms,
        why: String
    ) {
        do {
            _ = try DateArgument.parse(text, option: option, forms: forms)
            Issue.record("\(option) \(text) was accepted")
        } catch {
            let message = String(describing: error)
            #expect(message.hasPrefix("\(option) \(text): "), "\(message)")
            #expect(message.contains(why), "\(message)")
        }
    }
}
