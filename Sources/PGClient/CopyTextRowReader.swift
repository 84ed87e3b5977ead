#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the rows of a long `COPY … TO STDOUT` in text format one at a time, as ``CopyTextParser/fields(_:)`` reads
/// them, without an array of strings for every row: it finds a row's fields into a buffer it keeps from row to row,
/// makes a string of a field only when asked, and reads an integer straight from its bytes.
///
/// ```swift
/// var fields = CopyTextRowReader()
/// try connection.copyOut(sql) { row in
///     fields.read(row)
///     let identifier = try fields.decode(String.self, identifierField)
/// }
/// ```
package struct CopyTextRowReader: PGFieldSource {
    @usableFromInline
    struct Bounds {
        @usableFromInline var start: Int
        @usableFromInline var end: Int
        @usableFromInline var hasEscape: Bool

        @usableFromInline
        init(start: Int, end: Int, hasEscape: Bool) {
            self.start = start
            self.end = end
            self.hasEscape = hasEscape
        }
    }

    @usableFromInline var row = UnsafeRawBufferPointer(start: nil, count: 0)
    @usableFromInline var bounds: [Bounds] = []

    package init() {}

    /// The number of fields of the row last read.
    @inlinable
    package var count: Int { bounds.count }

    /// Finds the fields of `row` (the trailing newline is ignored). The other methods read this row until the next
    /// call, and only while its bytes are valid: call them inside the `copyOut` callback that gave the row.
    package mutating func read(_ row: UnsafeRawBufferPointer) {
        self.row = row
        // Taken out of `self` while the closure appends, so that the buffer stays uniquely referenced and keeps its
        // capacity from row to row.
        var found = bounds
        bounds = []
        found.removeAll(keepingCapacity: true)
        CopyTextParser.scanFields(row) { _, start, end, hasEscape in
            found.append(Bounds(start: start, end: end, hasEscape: hasEscape))
            return true
        }
        bounds = found
    }

    /// Whether the field at `index` is SQL NULL (`\N`); false for a field the row does not have.
    @inlinable
    package func isNull(_ index: Int) -> Bool {
        guard index < bounds.count else { return false }
        let field = bounds[index]
        return field.hasEscape && field.end - field.start == 2 && row[field.start] == UInt8(ascii: "\\")
            && row[field.start + 1] == UInt8(ascii: "N")
    }

    /// The field at `index` as text, as ``CopyTextParser/fields(_:)`` reads it; nil for SQL NULL and for a field
    /// the row does not have.
    @inlinable
    package func text(_ index: Int) -> String? {
        guard index < bounds.count else { return nil }
        let field = bounds[index]
        return CopyTextParser.field(row, field.start, field.end, field.hasEscape)
    }

    /// The text of `field` as ``PGFieldSource/decode(_:_:)-(String?.Type,_)`` reads it, nil for SQL NULL; but when
    /// the field holds the bytes of `previous`, `previous` itself, which then becomes the text read. A value that
    /// repeats row after row (a subscription's id on each of its notifications) is then one string, not a new one
    /// allocated per row.
    @inlinable
    package func decode(
        _ type: String?.Type, _ field: PGField, reusing previous: inout String?
    ) throws(PGError) -> String? {
        if field.position < bounds.count, let last = previous {
            let bytes = bounds[field.position]
            let length = bytes.end - bytes.start
            let same =
                !bytes.hasEscape
                && last.utf8.withContiguousStorageIfAvailable { stored in
                    guard stored.count == length, let storedBytes = stored.baseAddress, let rowBytes = row.baseAddress
                    else { return stored.count == length && length == 0 }
                    return memcmp(storedBytes, rowBytes + bytes.start, length) == 0
                } == true
            if same { return last }
        }
        let value = try decode(String?.self, field)
        if value != nil { previous = value }
        return value
    }

    /// The text of `field`, reusing `previous` as ``decode(_:_:reusing:)-(String?.Type,_,_)`` does.
    @inlinable
    package func decode(_ type: String.Type, _ field: PGField, reusing previous: inout String?) throws(PGError)
        -> String
    {
        guard let value = try decode(String?.self, field, reusing: &previous) else { throw field.nullError() }
        return value
    }

    /// The field at `index` as a 64-bit integer: what `Int64(text(index))` gives, read from the bytes. Nil for SQL
    /// NULL, a missing field, anything but an optional sign and decimal digits, and a value out of range.
    @inlinable
    package func int64(_ index: Int) -> Int64? {
        guard index < bounds.count else { return nil }
        let field = bounds[index]
        guard !field.hasEscape else {
            return CopyTextParser.field(row, field.start, field.end, true).flatMap { Int64($0) }
        }
        var position = field.start
        guard position < field.end else { return nil }
        let negative = row[position] == UInt8(ascii: "-")
        if negative || row[position] == UInt8(ascii: "+") { position += 1 }
        guard position < field.end else { return nil }
        var value: Int64 = 0
        while position < field.end {
            let digit = row[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Accumulating negatively reaches Int64.min, whose magnitude Int64 cannot hold.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = next
            position += 1
        }
        if negative { return value }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }
}
