#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds rows in PostgreSQL's binary COPY format: per row a 16-bit field count, then per field a 32-bit length
/// (-1 for NULL) and the value in its type's send format, all integers big-endian.
///
/// The server then parses no text: no timestamps, UUIDs or numbers, and no escapes. Each value must be written in
/// the exact format of its column's type (an `int2` column takes 2 bytes, a `timestamptz` 8); a field of the wrong
/// length is refused by the server with SQLSTATE 22P03. ``PGConnection/copyIn(_:chunkSize:_:)`` sends the format's
/// ``header`` and ``trailer`` around the rows of a `FORMAT binary` COPY, so ``bytes`` holds rows only and rows from
/// different buffers can be sent together.
///
/// Text is sent as its UTF-8 bytes; like ``CopyText``, a NUL byte is refused, since PostgreSQL cannot store it.
package struct CopyBinary: Sendable {
    /// The signature, flags (no OIDs) and header extension length (none) that start every binary COPY.
    package static let header: [UInt8] =
        [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// The field count -1 that ends the data.
    package static let trailer: [UInt8] = [0xFF, 0xFF]

    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch for timestamps.
    package static let postgresEpochMicroseconds: Int64 = 946_684_800_000_000

    /// The encoded rows so far.
    package private(set) var bytes: [UInt8] = []
    /// Where the current row's field count goes; nil between rows.
    private var rowStart: Int?
    /// The fields of the current row so far: the position of the next field's column.
    private(set) var fieldsInRow: Int16 = 0
    /// The table whose rows these are, when the writer names each value's column (``append(_:column:)`` and its
    /// kin): a debug build checks each name against the declaration's column at that position.
    package let declaration: PGTable?

    /// - Parameters:
    ///   - capacity: the bytes to reserve.
    ///   - declaration: the table whose rows these are, for the debug check of the names a writer gives.
    package init(reservingCapacity capacity: Int = 0, declaration: PGTable? = nil) {
        bytes.reserveCapacity(capacity)
        self.declaration = declaration
    }

    /// Number of bytes encoded so far.
    package var count: Int { bytes.count }

    /// Clears the buffer, keeping its memory.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rowStart = nil
        fieldsInRow = 0
    }

    /// Drops everything after the first `count` bytes, e.g. a row that failed half-way. `count` must be a row
    /// boundary.
    package mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
        rowStart = nil
        fieldsInRow = 0
    }

    /// Appends whole rows encoded elsewhere.
    package mutating func append(rows other: CopyBinary) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Starts a field: the row's field count first if this is its first field, then the field's length.
    private mutating func beginField(length: Int32) {
        if rowStart == nil {
            rowStart = bytes.count
            bytes.append(0)
            bytes.append(0)
        }
        fieldsInRow &+= 1
        appendBigEndian(length)
    }

    private mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends SQL NULL.
    package mutating func appendNull() {
        beginField(length: -1)
    }

    /// Appends a `text` field. `nil` appends NULL.
    /// - Throws: ``PGError`` of kind `invalidValue` when the text holds a NUL byte.
    package mutating func append(_ text: String?) throws(PGError) {
        guard let text else { return appendNull() }
        try UTF8Text.withBytes(of: text) { bytes throws(PGError) in try append(utf8: bytes) }
    }

    /// Appends a `text` field given as UTF-8 bytes.
    /// - Throws: ``PGError`` of kind `invalidValue` when the bytes hold a NUL.
    package mutating func append(utf8 source: UnsafeRawBufferPointer) throws(PGError) {
        try Self.refuseNul(source)
        beginField(length: Int32(source.count))
        bytes.append(contentsOf: source)
    }

    /// Appends a `jsonb` field from JSON text given as UTF-8 bytes: the format version 1, then the text, which the
    /// server parses as it parses `jsonb` input.
    /// - Throws: ``PGError`` of kind `invalidValue` when the bytes hold a NUL.
    package mutating func appendJSONB(utf8 source: UnsafeRawBufferPointer) throws(PGError) {
        try Self.refuseNul(source)
        beginField(length: Int32(source.count + 1))
        bytes.append(1)
        bytes.append(contentsOf: source)
    }

    private static func refuseNul(_ source: UnsafeRawBufferPointer) throws(PGError) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        if memchr(base, 0, source.count) != nil {
            throw PGError(kind: .invalidValue, message: "text contains a NUL byte, which PostgreSQL cannot store")
        }
    }

    /// Appends a `uuid` field from its text form: 32 hexadecimal digits, in either case, with or without the hyphens
    /// of the 8-4-4-4-12 form.
    /// - Throws: ``PGError`` of kind `invalidValue` when the text is not a UUID.
    package mutating func append(uuid text: String) throws(PGError) {
        // The first and the last 16 digits, as two big-endian halves.
        var halves: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") && (digits == 8 || digits == 12 || digits == 16 || digits == 20) { continue }
            guard digits < 32, let nibble = UTF8Text.hexValue(byte) else {
                throw PGError(kind: .invalidValue, message: "\"\(text.prefix(60))\" is not a UUID")
            }
            if digits < 16 {
                halves.0 = halves.0 << 4 | UInt64(nibble)
            } else {
                halves.1 = halves.1 << 4 | UInt64(nibble)
            }
            digits += 1
        }
        guard digits == 32 else {
            throw PGError(kind: .invalidValue, message: "\"\(text.prefix(60))\" is not a UUID")
        }
        beginField(length: 16)
        appendBigEndian(halves.0)
        appendBigEndian(halves.1)
    }

    /// Appends an `int2` (`smallint`), or NULL.
    package mutating func append(_ value: Int16?) {
        appendInteger(value)
    }

    /// Appends an `int4` (`integer`), or NULL.
    package mutating func append(_ value: Int32?) {
        appendInteger(value)
    }

    /// Appends an `int8` (`bigint`), or NULL.
    package mutating func append(_ value: Int64?) {
        appendInteger(value)
    }

    /// An integer at its own width. The public overloads are concrete, so that callers in other modules get code
    /// specialized for each width.
    private mutating func appendInteger<Integer: FixedWidthInteger>(_ value: Integer?) {
        guard let value else { return appendNull() }
        beginField(length: Int32(MemoryLayout<Integer>.size))
        appendBigEndian(value)
    }

    /// Appends a `bytea` field: the bytes as they are. `nil` appends NULL.
    package mutating func append<Bytes: Collection<UInt8>>(bytea value: Bytes?) {
        guard let value else { return appendNull() }
        beginField(length: Int32(value.count))
        bytes.append(contentsOf: value)
    }

    /// Appends a `boolean`, or NULL.
    package mutating func append(_ value: Bool?) {
        guard let value else { return appendNull() }
        beginField(length: 1)
        bytes.append(value ? 1 : 0)
    }

    /// Appends a `timestamptz` (or `timestamp`) given in Unix milliseconds: microseconds since 2000-01-01 00:00 UTC.
    /// `nil` appends NULL.
    /// - Returns: false, appending nothing, when the instant lies outside the years 1–9999 (as
    ///   ``PGTimestamp/text(milliseconds:)`` does).
    @discardableResult
    package mutating func appendTimestamp(milliseconds: Int64?) -> Bool {
        guard let milliseconds else {
            appendNull()
            return true
        }
        guard PGTimestamp.isInRange(milliseconds: milliseconds) else { return false }
        beginField(length: 8)
        appendBigEndian(milliseconds * 1000 - Self.postgresEpochMicroseconds)
        return true
    }

    /// Appends an `interval` in its send format: microseconds, then days, then months (each part kept apart, as
    /// PostgreSQL keeps them).
    package mutating func appendInterval(microseconds: Int64, days: Int32, months: Int32) {
        beginField(length: 16)
        appendBigEndian(microseconds)
        appendBigEndian(days)
        appendBigEndian(months)
    }

    /// Ends the current row, writing its field count.
    package mutating func endRow() {
        assert(
            declaration.map { Int(fieldsInRow) == $0.columns.count } ?? true,
            "a row of \(declaration?.name ?? "") ended after \(fieldsInRow) of its \(declaration?.columns.count ?? 0) columns"
        )
        guard let start = rowStart else {
            // A row without fields.
            bytes.append(0)
            bytes.append(0)
            return
        }
        bytes[start] = UInt8(truncatingIfNeeded: UInt16(bitPattern: fieldsInRow) >> 8)
        bytes[start + 1] = UInt8(truncatingIfNeeded: UInt16(bitPattern: fieldsInRow))
        rowStart = nil
        fieldsInRow = 0
    }
}
