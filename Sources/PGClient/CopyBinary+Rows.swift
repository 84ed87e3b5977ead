extension CopyBinary {
    /// A column type, as the binary format writes its values.
    package enum FieldType: Sendable, CaseIterable {
        case text, jsonb, uuid, smallint, integer, bigint, boolean, timestamptz

        /// The type's name as PostgreSQL's `format_type` prints it.
        package var name: String {
            switch self {
            case .text: "text"
            case .jsonb: "jsonb"
            case .uuid: "uuid"
            case .smallint: "smallint"
            case .integer: "integer"
            case .bigint: "bigint"
            case .boolean: "boolean"
            case .timestamptz: "timestamp with time zone"
            }
        }
    }

    /// The byte range of each row in `bytes` (rows as ``CopyBinary`` writes them, without header or trailer), as
    /// offsets from the start of `bytes`.
    ///
    /// Stops at the first row that does not fit in `bytes`, which a buffer built with ``CopyBinary`` never holds.
    package static func rowRanges(_ bytes: some RandomAccessCollection<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 0
        while let end = rowEnd(bytes, from: offset) {
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }

    /// The byte range of each field of one row (offsets from the row's start); nil for NULL.
    package static func fieldRanges(ofRow row: some RandomAccessCollection<UInt8>) -> [Range<Int>?] {
        var fields: [Range<Int>?] = []
        guard let count = integer(row, at: 0, as: Int16.self), count > 0 else { return fields }
        fields.reserveCapacity(Int(count))
        var offset = 2
        for _ in 0..<count {
            guard let length = integer(row, at: offset, as: Int32.self) else { break }
            offset += 4
            if length < 0 {
                fields.append(nil)
                continue
            }
            guard offset + Int(length) <= row.count else { break }
            fields.append(offset..<(offset + Int(length)))
            offset += Int(length)
        }
        return fields
    }

    /// The end of the row that starts `offset` bytes into `bytes`, or nil when no whole row starts there.
    private static func rowEnd(_ bytes: some RandomAccessCollection<UInt8>, from offset: Int) -> Int? {
        guard let count = integer(bytes, at: offset, as: Int16.self), count >= 0 else { return nil }
        var position = offset + 2
        for _ in 0..<count {
            guard let length = integer(bytes, at: position, as: Int32.self) else { return nil }
            position += 4 + max(0, Int(length))
        }
        return position <= bytes.count ? position : nil
    }

    /// The big-endian integer `offset` bytes into `bytes`, or nil past their end.
    package static func integer<Integer: FixedWidthInteger>(
        _ bytes: some RandomAccessCollection<UInt8>,
        at offset: Int,
        as type: Integer.Type
    ) -> Integer? {
        let width = Integer.bitWidth / 8
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        var value = Integer.zero
        var index = bytes.index(bytes.startIndex, offsetBy: offset)
        for _ in 0..<width {
            value = value << 8 | Integer(truncatingIfNeeded: bytes[index])
            bytes.formIndex(after: &index)
        }
        return value
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A `uuid` field's 16 bytes in PostgreSQL's text form: lower case, 8-4-4-4-12.
    package static func uuidText(_ field: some Collection<UInt8>) -> String {
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
