import CivilTime
import Testing

/// The one reader of instants written as text: ISO 8601 with a zone, and Unix milliseconds in 2008–2100.
@Suite struct InstantTextTests {
    @Test func readsAnISO8601InstantWithItsZone() {
        // 2026-03-01T09:30:00Z.
        let instant: Int64 = 1_772_357_400_000
        #expect(InstantText.milliseconds(iso8601: "2026-03-01T09:30:00Z") == instant)
        #expect(InstantText.milliseconds(iso8601: "2026-03-01T10:30:00+01:00") == instant)
        #expect(InstantText.milliseconds(iso8601: "2026-03-01T04:30-0500") == instant)
        #expect(InstantText.milliseconds(iso8601: "2026-03-01T09:30:00.1239Z") == instant + 123)
        for refused in ["2026-03-01T09:30:00", "2026-03-01", "2026-02-30T09:30:00Z", "2026-03-01T24:00:00Z", ""] {
            #expect(InstantText.milliseconds(iso8601: refused) == nil, "\(refused)")
        }
    }

    @Test func readsDigitsAsMillisecondsAndTellsSecondsApart() {
        #expect(InstantText.isDigits("1772357400000"))
        #expect(!InstantText.isDigits("-1") && !InstantText.isDigits("") && !InstantText.isDigits("1e3"))
        #expect(InstantText.milliseconds(digits: "1772357400000") == .instant(1_772_357_400_000))
        #expect(InstantText.milliseconds(digits: "1772357400") == .seconds)
        #expect(InstantText.milliseconds(digits: "4102444800001") == .outOfRange)
        #expect(InstantText.milliseconds(digits: "99999999999999999999") == .outOfRange)
    }
}
