extension CopyBinary {
    /// A column type, as the binary format writes its values: a column's declared type (``PGType``).
    package typealias FieldType = PGType

    /// The byte range of each row in `bytes` (rows as ``CopyBinary`` writes them, without header or trailer), as
    /// offsets from the start of `bytes`.
    ///
    /// Stops at the first row that does not fit in `bytes`, which a buffer built with ``CopyBinary`` never holds.
    package static func rowRanges(_ bytes: ArraySlice<UInt8>) -> [Range<Int>] {
        bytes.withUnsafeBytes { buffer in
            var ranges: [Range<Int>] = []
            var offset = 0
            while let end = rowEnd(buffer, from: offset) {
                ranges.append(offset..<end)
                offset = end
            }
            return ranges
        }
    }

    /// ``rowRanges(_:)-(ArraySlice<UInt8>)`` of a whole buffer.
    package static func rowRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        rowRanges(bytes[...])
    }

    /// The byte range of each field of one row (offsets from the row's start); nil for NULL.
    package static func fieldRanges(ofRow row: ArraySlice<UInt8>) -> [Range<Int>?] {
        var fields: [Range<Int>?] = []
        fieldRanges(ofRow: row, into: &fields)
        return fields
    }

    /// ``fieldRanges(ofRow:)`` written into `fields`, which keeps its storage from one row to the next: a reader of
    /// many rows allocates once.
    package static func fieldRanges(ofRow row: ArraySlice<UInt8>, into fields: inout [Range<Int>?]) {
        fields.removeAll(keepingCapacity: true)
        row.withUnsafeBytes { buffer in
            guard let count = integer(buffer, at: 0, as: Int16.self), count > 0 else { return }
            fields.reserveCapacity(Int(count))
            var offset = 2
            for _ in 0..<count {
                guard let length = integer(buffer, at: offset, as: Int32.self) else { break }
                offset += 4
                if length < 0 {
                    fields.append(nil)
                    continue
                }
                guard offset + Int(length) <= buffer.count else { break }
                fields.append(offset..<(offset + Int(length)))
                offset += Int(length)
            }
        }
    }

    /// The bytes of each field of one row, slices of `row`; nil for NULL.
    package static func fields(ofRow row: ArraySlice<UInt8>) -> [ArraySlice<UInt8>?] {
        fieldRanges(ofRow: row).map { range in
            range.map { row[(row.startIndex + $0.lowerBound)..<(row.startIndex + $0.upperBound)] }
        }
    }

    /// The end of the row that starts `offset` bytes into `buffer`, or nil when no whole row starts there.
    private static func rowEnd(_ buffer: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        guard let count = integer(buffer, at: offset, as: Int16.self), count >= 0 else { return nil }
        var position = offset + 2
        for _ in 0..<count {
            guard let length = integer(buffer, at: position, as: Int32.self) else { return nil }
            position += 4 + max(0, Int(length))
        }
        return position <= buffer.count ? position : nil
    }

    /// The big-endian integer `offset` bytes into `buffer`, or nil past its end.
    private static func integer<Integer: FixedWidthInteger>(
        _ buffer: UnsafeRawBufferPointer,
        at offset: Int,
        as type: Integer.Type
    ) -> Integer? {
        guard offset >= 0, offset + MemoryLayout<Integer>.size <= buffer.count else { return nil }
        return Integer(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }

    /// The big-endian 16-bit integer `offset` bytes into `bytes`, or nil past their end.
    package static func int16(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int16? {
        bytes.withUnsafeBytes { integer($0, at: offset, as: Int16.self) }
    }

    /// The big-endian 32-bit integer `offset` bytes into `bytes`, or nil past their end.
    package static func int32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int32? {
        bytes.withUnsafeBytes { integer($0, at: offset, as: Int32.self) }
    }

    /// The big-endian 64-bit integer `offset` bytes into `bytes`, or nil past their end.
    package static func int64(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int64? {
        bytes.withUnsafeBytes { integer($0, at: offset, as: Int64.self) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A `uuid` field's 16 bytes in PostgreSQL's text form: lower case, 8-4-4-4-12.
    package static func uuidText(_ field: ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in field.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
