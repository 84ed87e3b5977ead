/// Builds rows in PostgreSQL's COPY text format: fields separated by tabs, `\N` for NULL, a newline per row.
///
/// Backslash, tab, newline and carriage return are escaped; a NUL byte cannot be sent in text and is refused.
/// Work on UTF-8 bytes throughout: lengths are byte counts, never character counts.
package struct CopyText: Sendable {
    /// The encoded rows so far.
    package private(set) var bytes: [UInt8] = []
    private var fieldsInRow = 0

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes encoded so far.
    package var count: Int { bytes.count }

    /// Clears the buffer, keeping its memory.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        fieldsInRow = 0
    }

    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(0x09) }
        fieldsInRow += 1
    }

    /// Drops everything after the first `count` bytes, e.g. a row that failed half-way. `count` must be a row
    /// boundary.
    package mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
        fieldsInRow = 0
    }

    /// Appends whole rows encoded elsewhere.
    package mutating func append(rows other: CopyText) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Appends SQL NULL.
    package mutating func appendNull() {
        separate()
        bytes.append(0x5C)
        bytes.append(0x4E)
    }

    /// Appends a text field, escaped. `nil` appends NULL.
    /// - Throws: ``PGError`` of kind `invalidValue` when the text holds a NUL byte.
    package mutating func append(_ text: String?) throws(PGError) {
        guard let text else { return appendNull() }
        try UTF8Text.withBytes(of: text) { bytes throws(PGError) in try append(utf8: bytes) }
    }

    /// Appends a text field given as UTF-8 bytes, escaped.
    package mutating func append(utf8 source: UnsafeRawBufferPointer) throws(PGError) {
        separate()
        // Runs of bytes that need no escape are copied whole; eight bytes at a time are checked for the bytes below
        // 0x0E (NUL, tab, newline and carriage return among them) and the backslash.
        var runStart = 0
        var index = 0
        while index < source.count {
            while index + 8 <= source.count,
                Self.needsNoEscape(source.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
            }
            guard index < source.count else { break }
            let escaped: UInt8
            switch source[index] {
            case 0x00:
                throw PGError(kind: .invalidValue, message: "text contains a NUL byte, which PostgreSQL cannot store")
            case 0x5C: escaped = 0x5C
            case 0x09: escaped = 0x74
            case 0x0A: escaped = 0x6E
            case 0x0D: escaped = 0x72
            default:
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[runStart..<index]))
            bytes.append(0x5C)
            bytes.append(escaped)
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[runStart..<source.count]))
    }

    /// Whether none of eight bytes is below 0x0E or a backslash (SWAR: each test sets a matching byte's high bit).
    private static func needsNoEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below0E = (word &- ones &* 0x0E) & ~word & highs
        let backslashes = word ^ (ones &* 0x5C)
        let isBackslash = (backslashes &- ones) & ~backslashes & highs
        return below0E | isBackslash == 0
    }

    /// Appends a text field from bytes that are known to need no escaping (digits, ASCII identifiers).
    package mutating func appendVerbatim(_ ascii: some Sequence<UInt8>) {
        separate()
        bytes.append(contentsOf: ascii)
    }

    /// Appends an integer, or NULL.
    package mutating func append<Integer: BinaryInteger>(_ value: Integer?) {
        guard let value else { return appendNull() }
        appendVerbatim(String(value).utf8)
    }

    /// Appends a boolean (`t`/`f`), or NULL.
    package mutating func append(_ value: Bool?) {
        guard let value else { return appendNull() }
        appendVerbatim(value ? [0x74] : [0x66])
    }

    /// Ends the current row.
    package mutating func endRow() {
        bytes.append(0x0A)
        fieldsInRow = 0
    }
}
