extension CopyText {
    /// Appends rows written in binary COPY format (by ``CopyBinary``) as text rows with the same values, so that
    /// PostgreSQL reads the same from either and refuses the same, with the messages its text input gives.
    ///
    /// An integer is written at the width its field has, whatever its column: 4 bytes in a `smallint` column become
    /// a number PostgreSQL then refuses as out of range for `smallint`. Timestamps must be whole milliseconds.
    /// - Parameters:
    ///   - rows: whole rows, without the format's header or trailer.
    ///   - types: each field's column type, in order.
    /// - Throws: ``PGError`` of kind `invalidValue` when a row does not have the fields `types` describes.
    package mutating func append(binaryRows rows: ArraySlice<UInt8>, types: [CopyBinary.FieldType]) throws(PGError) {
        for rowRange in CopyBinary.rowRanges(rows) {
            let row = rows[(rows.startIndex + rowRange.lowerBound)..<(rows.startIndex + rowRange.upperBound)]
            let fields = CopyBinary.fields(ofRow: row)
            guard fields.count == types.count else {
                throw Self.malformed("a row has \(fields.count) fields where \(types.count) were expected")
            }
            for (type, field) in zip(types, fields) {
                guard let field else {
                    appendNull()
                    continue
                }
                try append(field: field, type)
            }
            endRow()
        }
    }

    private mutating func append(field: ArraySlice<UInt8>, _ type: CopyBinary.FieldType) throws(PGError) {
        switch type {
        case .text:
            try append(utf8Bytes: field)
        case .jsonb:
            guard field.first == 1 else { throw Self.malformed("a jsonb field is not of format version 1") }
            try append(utf8Bytes: field.dropFirst())
        case .uuid:
            guard field.count == 16 else { throw Self.malformed("a uuid field has \(field.count) bytes") }
            appendVerbatim(CopyBinary.uuidText(field).utf8)
        case .smallint, .integer, .bigint:
            switch field.count {
            case 2: append(CopyBinary.int16(field, at: 0))
            case 4: append(CopyBinary.int32(field, at: 0))
            case 8: append(CopyBinary.int64(field, at: 0))
            default: throw Self.malformed("an integer field has \(field.count) bytes")
            }
        case .boolean:
            guard field.count == 1 else { throw Self.malformed("a boolean field has \(field.count) bytes") }
            append(field.first != 0)
        case .timestamptz:
            guard let microseconds = CopyBinary.int64(field, at: 0), field.count == 8 else {
                throw Self.malformed("a timestamp field has \(field.count) bytes")
            }
            let (unix, overflow) = microseconds.addingReportingOverflow(CopyBinary.postgresEpochMicroseconds)
            let (milliseconds, rest) = unix.quotientAndRemainder(dividingBy: 1000)
            guard !overflow, rest == 0, let text = PGTimestamp.text(milliseconds: milliseconds) else {
                throw Self.malformed("a timestamp is not a whole millisecond of the years 1–9999")
            }
            appendVerbatim(text)
        case .interval:
            throw Self.malformed("an interval field has no binary reading here")
        case .bytea:
            // bytea's hex input, `\x` and two digits a byte, with its backslash doubled as the text format wants.
            appendVerbatim(
                Self.byteaHexPrefix + field.flatMap { [Self.hexDigits[Int($0 >> 4)], Self.hexDigits[Int($0 & 0x0F)]] })
        }
    }

    private static let byteaHexPrefix: [UInt8] = Array(#"\\x"#.utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func append(utf8Bytes bytes: ArraySlice<UInt8>) throws(PGError) {
        var failure: PGError?
        bytes.withUnsafeBytes { buffer in
            do throws(PGError) {
                try append(utf8: buffer)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private static func malformed(_ detail: String) -> PGError {
        PGError(kind: .invalidValue, message: "binary COPY data cannot be read as text: \(detail)")
    }
}
