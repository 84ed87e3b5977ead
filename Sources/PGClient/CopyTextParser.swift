/// Splits one row of PostgreSQL's COPY text format into fields: tab-separated, `\N` for NULL, backslash escapes.
///
/// Reads every row as PostgreSQL's own COPY FROM reads it: the escapes `\b \f \n \r \t \v`, octal (`\101`) and hex
/// (`\x41`) byte codes, any other escaped byte as itself (an escaped tab is text, not a separator), and a backslash
/// that ends the row dropped.
package enum CopyTextParser {
    /// The fields of one row (the trailing newline is ignored). `nil` is SQL NULL.
    package static func fields(_ row: UnsafeRawBufferPointer) -> [String?] {
        var fields: [String?] = []
        fields.reserveCapacity(24)
        scanFields(row) { _, start, end, hasEscape in
            fields.append(field(row, start, end, hasEscape))
            return true
        }
        return fields
    }

    /// The field at `position` (0 for the first) of one row, as ``fields(_:)`` reads it, reading the row only up to
    /// that field's end. `nil` is SQL NULL, or a row with fewer fields.
    package static func field(_ row: UnsafeRawBufferPointer, at position: Int) -> String? {
        var found: String?
        scanFields(row) { index, start, end, hasEscape in
            guard index == position else { return true }
            found = field(row, start, end, hasEscape)
            return false
        }
        return found
    }

    /// Finds each field of a row in order (the trailing newline is ignored) and hands over its number, its bytes'
    /// bounds and whether it holds an escape, until `body` returns false.
    static func scanFields(
        _ row: UnsafeRawBufferPointer, _ body: (_ index: Int, _ start: Int, _ end: Int, _ hasEscape: Bool) -> Bool
    ) {
        var end = row.count
        if end > 0, row[end - 1] == 0x0A { end -= 1 }
        var start = 0
        var current = 0
        var hasEscape = false
        var index = nextTabOrBackslash(row, from: 0, end: end)
        while true {
            if index == end || row[index] == 0x09 {
                guard body(current, start, index, hasEscape), index < end else { return }
                current += 1
                start = index + 1
                hasEscape = false
                index = nextTabOrBackslash(row, from: start, end: end)
            } else {
                // A backslash with nothing after it ends the last field and is dropped.
                if index + 1 == end {
                    _ = body(current, start, index, hasEscape)
                    return
                }
                // The escaped byte is text, a tab included.
                hasEscape = true
                index = nextTabOrBackslash(row, from: index + 2, end: end)
            }
        }
    }

    /// The offset of the first tab or backslash in `row[from..<end]`, or `end`: eight bytes at a time, since a row
    /// is mostly long fields without either.
    private static func nextTabOrBackslash(_ row: UnsafeRawBufferPointer, from: Int, end: Int) -> Int {
        var index = from
        if let base = row.baseAddress {
            while index + 8 <= end {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let found = zeroBytes(word ^ 0x0909_0909_0909_0909) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                // The lowest marked byte is a true zero (a false mark only follows a true one), and the lowest byte
                // of a little-endian word comes first in memory.
                if found != 0 { return index + found.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < end, row[index] != 0x09, row[index] != 0x5C { index += 1 }
        return index
    }

    /// The high bit of each byte of `word` that is zero, and possibly of bytes above a zero byte.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    @usableFromInline
    static func field(_ row: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ hasEscape: Bool) -> String? {
        if end - start == 2, row[start] == 0x5C, row[start + 1] == 0x4E { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: row[start..<end])
        guard hasEscape else { return String(decoding: slice, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            let byte = slice[index]
            guard byte == 0x5C, index + 1 < slice.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = slice[index + 1]
            index += 2
            switch next {
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "v"): bytes.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(next - 0x30)
                var digits = 1
                while digits < 3, index < slice.count, (0x30...0x37).contains(slice[index]) {
                    value = value * 8 + Int(slice[index] - 0x30)
                    index += 1
                    digits += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "x"):
                // One or two hex digits; without one, `\x` is the letter x.
                guard index < slice.count, let high = UTF8Text.hexValue(slice[index]) else {
                    bytes.append(next)
                    break
                }
                index += 1
                var value = high
                if index < slice.count, let low = UTF8Text.hexValue(slice[index]) {
                    value = value << 4 | low
                    index += 1
                }
                bytes.append(value)
            default: bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
