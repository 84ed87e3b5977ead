import CivilTime

/// Unix milliseconds as PostgreSQL `timestamptz` text in UTC, without Foundation date formatting.
package enum PGTimestamp {
    /// Whether an instant lies within the years 1–9999, the range timestamps are written in.
    package static func isInRange(milliseconds: Int64) -> Bool {
        // 0001-01-01 and 10000-01-01 in Unix milliseconds.
        milliseconds >= -62_135_596_800_000 && milliseconds < 253_402_300_800_000
    }

    /// `YYYY-MM-DD HH:MM:SS.mmm+00`, or nil outside years 1–9999.
    package static func text(milliseconds: Int64) -> [UInt8]? {
        guard isInRange(milliseconds: milliseconds) else { return nil }
        let (days, remainder) = CivilDate.split(unixMilliseconds: milliseconds)
        let date = CivilDate(daysSinceEpoch: days)
        let (year, month, day) = (Int64(date.year), Int64(date.month), Int64(date.day))
        let hour = remainder / 3_600_000
        let minute = remainder / 60_000 % 60
        let second = remainder / 1000 % 60
        let millisecond = remainder % 1000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(26)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            while divisor > 0 {
                bytes.append(UInt8(0x30 + value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(0x2D); digits(month, 2); bytes.append(0x2D); digits(day, 2)
        bytes.append(0x20)
        digits(hour, 2); bytes.append(0x3A); digits(minute, 2); bytes.append(0x3A); digits(second, 2)
        bytes.append(0x2E); digits(millisecond, 3)
        bytes.append(contentsOf: [0x2B, 0x30, 0x30])
        return bytes
    }
}
