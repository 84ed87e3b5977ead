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
        guard var utf8Text = text else { return appendNull() }
        var failure: PGError?
        utf8Text.withUTF8 { buffer in
            do throws(PGError) {
                try append(utf8: UnsafeRawBufferPointer(buffer))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Appends a text field given as UTF-8 bytes, escaped.
    package mutating func append(utf8 source: UnsafeRawBufferPointer) throws(PGError) {
        separate()
        // No reserveCapacity here: reserving an exact size on every field would defeat the array's geometric
        // growth and copy the whole buffer each time.
        for byte in source {
            switch byte {
            case 0x00:
                throw PGError(kind: .invalidValue, message: "text contains a NUL byte, which PostgreSQL cannot store")
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x09: bytes.append(0x5C); bytes.append(0x74)
            case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
            case 0x0D: bytes.append(0x5C); bytes.append(0x72)
            default: bytes.append(byte)
            }
        }
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
