import Analysis
import CivilTime
import Foundation
import Reports
import Testing

@Suite struct HumanFormatTests {
    @Test(arguments: [(0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (1_234_567, "1,234,567"), (-4321, "-4,321")])
    func counts(value: Int, expected: String) {
        #expect(HumanFormat.count(value) == expected)
    }

    @Test func signedCounts() {
        #expect(HumanFormat.signedCount(3) == "+3")
        #expect(HumanFormat.signedCount(0) == "0")
        #expect(HumanFormat.signedCount(-1200) == "-1,200")
    }

    @Test(arguments: [
        (0.0, "0.0%"), (1.0, "100.0%"), (0.5556, "55.6%"), (1.0 / 3.0, "33.3%"), (-0.0001, "0.0%"),
    ])
    func percentages(share: Double, expected: String) {
        #expect(HumanFormat.percent(share) == expected)
    }

    @Test func undefinedValues() {
        #expect(HumanFormat.percent(nil) == "n/a")
        #expect(HumanFormat.percent(.nan) == "n/a")
        #expect(HumanFormat.percentagePoints(from: nil, to: 0.5) == "n/a")
    }

    @Test func percentagePoints() {
        #expect(HumanFormat.percentagePoints(from: 0.4, to: 0.425) == "+2.5 pp")
        #expect(HumanFormat.percentagePoints(from: 0.5, to: 0.4) == "-10.0 pp")
        #expect(HumanFormat.percentagePoints(from: 0.5, to: 0.5) == "0.0 pp")
        #expect(HumanFormat.percentagePoints(from: 0.5, to: 0.5 - 1e-9) == "0.0 pp")
    }

    @Test(arguments: [
        (Int64(9990), "USD", "USD 9.99"),
        (1_234_560, "USD", "USD 1,234.56"),
        (1_234_567, "KWD", "KWD 1,234.567"),
        (120_000, "JPY", "JPY 120"),
        (32_850_000, "JPY", "JPY 32,850"),
        // An amount finer than the currency's minor unit keeps its decimals: never rounded.
        (598_610, "JPY", "JPY 598.61"),
        (1_250, "KWD", "KWD 1.250"),
        (-7_000, "KRW", "KRW -7"),
        (0, "EUR", "EUR 0.00"),
        (5, "BHD", "BHD 0.005"),
        (9990, "", "(no currency) 9.99"),
    ])
    func money(milliunits: Int64, currency: String, expected: String) {
        #expect(HumanFormat.money(milliunits, currency: currency) == expected)
    }

    @Test func moneyChanges() {
        #expect(HumanFormat.money(nil, currency: "USD") == "USD (too large to add up)")
        #expect(HumanFormat.moneyChange(from: 7990, to: 0, currency: "GBP") == "GBP -7.99")
        #expect(HumanFormat.moneyChange(from: 0, to: 9990, currency: "USD") == "USD +9.99")
        #expect(HumanFormat.moneyChange(from: 10, to: 10, currency: "USD") == "USD 0.00")
        #expect(HumanFormat.moneyChange(from: nil, to: 10, currency: "USD") == "USD n/a")
        #expect(HumanFormat.moneyChange(from: Int64.min, to: Int64.max, currency: "USD") == "USD n/a")
    }

    @Test(arguments: [
        (Int64(1_719_792_000_000), "2024-07-01", "2024-07-01T00:00:00Z", "2024-07-01 00:00 UTC"),
        (1_721_347_200_123, "2024-07-19", "2024-07-19T00:00:00.123Z", "2024-07-19 00:00 UTC"),
        (1_709_251_199_999, "2024-02-29", "2024-02-29T23:59:59.999Z", "2024-02-29 23:59 UTC"),
        (1_767_225_346_817, "2025-12-31", "2025-12-31T23:55:46.817Z", "2025-12-31 23:55 UTC"),
        (-1, "1969-12-31", "1969-12-31T23:59:59.999Z", "1969-12-31 23:59 UTC"),
        (0, "1970-01-01", "1970-01-01T00:00:00Z", "1970-01-01 00:00 UTC"),
    ])
    func utcTimes(millis: Int64, date: String, timestamp: String, minute: String) {
        #expect(UTCTime.date(millis) == date)
        #expect(UTCTime.timestamp(millis) == timestamp)
        // For people: to the minute, cut rather than rounded.
        #expect(UTCTime.minute(millis) == minute)
        #expect(Report.directoryName(asOf: millis) == date)
    }

    /// Every instant of years 0…9999 is written as the calendar fields say, digit for digit (each field from
    /// `CivilDate`, formatted here by `String(format:)`); the years around that range take the general path.
    @Test func utcTimesAgreeWithTheirCalendarFields() {
        var random = SplitMix64(seed: 0x7115)
        let first = CivilDate(year: 0, month: 1, day: 1).unixMilliseconds
        let last = CivilDate(year: 10_000, month: 1, day: 1).unixMilliseconds - 1
        var instants = [first, last, 0, -1, 1_767_225_346_817]
        for _ in 0..<20_000 {
            let instant = random.int64(in: first...last)
            instants += [instant, instant - instant % 1000]
        }
        for millis in instants {
            let (day, ofDay) = CivilDate.split(unixMilliseconds: millis)
            let date = CivilDate(daysSinceEpoch: day)
            let seconds = Int(ofDay / 1000)
            let calendar = String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
            let time = String(format: "T%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            let milliseconds = String(format: ".%03d", Int(ofDay % 1000))
            #expect(UTCTime.date(millis) == calendar)
            #expect(UTCTime.timestampWithMilliseconds(millis) == calendar + time + milliseconds + "Z")
            #expect(UTCTime.timestamp(millis) == calendar + time + (ofDay % 1000 == 0 ? "" : milliseconds) + "Z")
        }
        #expect(UTCTime.timestamp(first - 1) == "-0001-12-31T23:59:59.999Z")
        #expect(UTCTime.timestampWithMilliseconds(last + 1) == "10000-01-01T00:00:00.000Z")
        #expect(UTCTime.date(last + 1) == "10000-01-01")
    }

    @Test func intervalsAndRatios() {
        let interval = ConfidenceInterval(low: 0.215216, high: 0.784784)
        #expect(HumanFormat.percentInterval(interval) == "21.5%–78.5%")
        #expect(HumanFormat.percent(0.5, interval: interval) == "50.0% (21.5%–78.5%)")
        #expect(HumanFormat.percent(nil, interval: nil) == "n/a")
        #expect(HumanFormat.percent(0.5, interval: nil) == "50.0% (n/a)")
        #expect(HumanFormat.percent(0.023456, places: 2) == "2.35%")
        #expect(HumanFormat.ratio(1.3456) == "1.35")
        #expect(HumanFormat.ratio(nil) == "n/a")
        #expect(HumanFormat.ratio(.infinity) == "n/a")
        #expect(HumanFormat.ratioInterval(ConfidenceInterval(low: 0.912, high: 2.0949)) == "0.91–2.09")
        #expect(HumanFormat.ratioInterval(nil) == "n/a")
    }

    @Test func amountsWithoutCurrencyCode() {
        #expect(HumanFormat.amount(1_234_560, currency: "USD") == "1,234.56")
        #expect(HumanFormat.amount(1_234, currency: "EUR") == "1.234")
        #expect(HumanFormat.amount(10_500_000, currency: "JPY") == "10,500")
        #expect(HumanFormat.amount(nil, currency: "USD") == "(too large to add up)")
    }

    /// Estimates show no more than the currency's minor unit: the cent, the whole yen, the thousandth of a dinar.
    @Test func estimatesAreRoundedToTheMinorUnit() {
        #expect(HumanFormat.estimate(65.6149, currency: "USD") == 65_610)
        #expect(HumanFormat.estimate(1_721.72, currency: "JPY") == 1_722_000)
        #expect(HumanFormat.estimate(1.2345, currency: "KWD") == 1_235)
        #expect(HumanFormat.estimate(-0.4, currency: "JPY") == 0)
        #expect(HumanFormat.estimate(.nan, currency: "USD") == 0)
        #expect(HumanFormat.minorUnitDigits(of: "") == 2)
        #expect(HumanFormat.minorUnitDigits(of: "jpy") == 2)
    }
}
