import PGClient
import TestSupport
import Testing

/// `timestamptz` text from Unix milliseconds, over the whole range it covers: read back by a plain calendar count and
/// by PostgreSQL itself.
@Suite struct PGTimestampTests {
    static let first: Int64 = -62_135_596_800_000  // 0001-01-01 00:00:00.000 UTC
    static let end: Int64 = 253_402_300_800_000  // 10000-01-01 00:00:00.000 UTC

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Days from 0001-01-01 to January 1 of each year 1…10000, counted one year at a time.
    static let daysBeforeYear: [Int] = {
        var days = [0, 0]
        for year in 1..<10_000 { days.append(days[year] + (isLeap(year) ? 366 : 365)) }
        return days
    }()

    /// Unix milliseconds of a civil UTC time, by counting days (a reference that shares nothing with CivilDate).
    static func milliseconds(_ year: Int, _ month: Int, _ day: Int, _ millisecondOfDay: Int64 = 0) -> Int64 {
        let monthLengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let days = daysBeforeYear[year] + monthLengths.prefix(month - 1).reduce(0, +) + day - 1
        return Int64(days - daysBeforeYear[1970]) * 86_400_000 + millisecondOfDay
    }

    /// Reads `YYYY-MM-DD HH:MM:SS.mmm+00` back into Unix milliseconds; nil when the text has another shape.
    static func read(_ text: [UInt8]) -> Int64? {
        let shape = Array("0000-00-00 00:00:00.000+00".utf8)
        guard text.count == shape.count,
            zip(text, shape).allSatisfy({ $1 == 0x30 ? (0x30...0x39).contains($0) : $0 == $1 })
        else { return nil }
        func number(_ range: Range<Int>) -> Int { text[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        let monthLengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...9999).contains(year), (1...12).contains(month), (1...monthLengths[month - 1]).contains(day),
            number(11..<13) < 24, number(14..<16) < 60, number(17..<19) < 60
        else { return nil }
        let millisecondOfDay = Int64(
            ((number(11..<13) * 60 + number(14..<16)) * 60 + number(17..<19)) * 1000 + number(20..<23))
        return milliseconds(year, month, day, millisecondOfDay)
    }

    /// Instants spread over the whole range, and instants a few days either side of the places calendars get wrong:
    /// the epoch, leap days of leap and non-leap centuries, the Gregorian reform, year ends, the first and last day.
    static func instants(count: Int, seed: UInt64) -> [Int64] {
        var random = SeededRandom(seed: seed)
        let anchors = [
            milliseconds(1970, 1, 1), milliseconds(2000, 2, 29), milliseconds(1900, 2, 28), milliseconds(2100, 3, 1),
            milliseconds(1600, 2, 29), milliseconds(2024, 2, 29), milliseconds(1582, 10, 15), milliseconds(1, 1, 1),
            milliseconds(9999, 12, 31), milliseconds(100, 3, 1), milliseconds(999, 12, 31),
        ]
        return (0..<count).map { _ in
            let instant: Int64
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                instant = Int64.random(in: first..<end, using: &random)
            case 1:
                instant = random.pick(anchors) + Int64.random(in: -3 * 86_400_000...3 * 86_400_000, using: &random)
            default:
                let year = Int.random(in: 1...9999, using: &random)
                instant = milliseconds(year, 1, 1) + Int64.random(in: -86_400_000...86_400_000, using: &random)
            }
            return min(max(instant, first), end - 1)
        }
    }

    @Test func writesEveryInstantAsTheCalendarCountsIt() throws {
        var failures = 0
        for instant in Self.instants(count: 20_000, seed: 0x7157) where failures < 5 {
            let text = try #require(PGTimestamp.text(milliseconds: instant))
            if Self.read(text) != instant {
                Issue.record("\(instant) written as \(String(decoding: text, as: UTF8.self))")
                failures += 1
            }
        }
    }

    @Test func textOrderIsTimeOrder() throws {
        let sorted = Self.instants(count: 5_000, seed: 0x7158).sorted()
        let texts = try sorted.map { try #require(PGTimestamp.text(milliseconds: $0)) }
        #expect(zip(texts, texts.dropFirst()).allSatisfy { !$1.lexicographicallyPrecedes($0) })
    }

    @Test func coversYearsOneTo9999AndNothingElse() {
        func text(_ milliseconds: Int64) -> String? {
            PGTimestamp.text(milliseconds: milliseconds).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(text(Self.first) == "0001-01-01 00:00:00.000+00")
        #expect(text(Self.end - 1) == "9999-12-31 23:59:59.999+00")
        #expect(text(0) == "1970-01-01 00:00:00.000+00")
        #expect(text(-1) == "1969-12-31 23:59:59.999+00")
        for outside in [Self.first - 1, Self.end, Int64.min, Int64.max] {
            #expect(text(outside) == nil)
        }
    }

    /// PostgreSQL reads every text as the same instant, whatever the session's time zone.
    @Test func postgreSQLReadsTheSameInstants() throws {
        let schema = try TestDatabase.makeSchema("timestamp")
        let connection = try schema.connect()
        try connection.execute("SET TimeZone = 'Pacific/Chatham'")
        let instants = Self.instants(count: 600, seed: 0x7159) + [Self.first, Self.end - 1, 0, -1]
        let texts = try instants.map {
            String(decoding: try #require(PGTimestamp.text(milliseconds: $0)), as: UTF8.self)
        }
        let mismatches = try connection.execute(
            """
            SELECT ms, t, round(extract(epoch FROM t::timestamptz) * 1000)::bigint,
                   to_char(t::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')
            FROM unnest($1::bigint[], $2::text[]) AS u(ms, t)
            WHERE round(extract(epoch FROM t::timestamptz) * 1000)::bigint <> ms
               OR to_char(t::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') <> left(t, 23)
            """,
            [
                "{" + instants.map(String.init).joined(separator: ",") + "}",
                "{" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "}",
            ]
        ).rows
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        let count = try connection.execute(
            "SELECT count(*) FROM unnest($1::text[]) AS t WHERE t::timestamptz IS NOT NULL",
            ["{" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "}"]
        ).scalar
        #expect(count == String(instants.count))
    }
}
