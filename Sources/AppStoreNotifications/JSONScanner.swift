import Foundation

/// A strict JSON checker (RFC 8259) that also finds where a few string fields sit in the text.
///
/// Foundation's `JSONDecoder` is lenient: it accepts trailing commas, leading zeros, a byte-order mark, and keeps the
/// first of two duplicate keys where PostgreSQL's `jsonb` keeps the last. Text that passes this check is JSON that
/// PostgreSQL stores as `jsonb` with the same meaning the models decoded:
/// - the grammar is exact: no trailing commas, no leading zeros, no comments, nothing after the value;
/// - strings are well-formed UTF-8 with no raw control characters, no `\u0000` (which `jsonb` refuses) and no unpaired
///   UTF-16 surrogates;
/// - no object has the same key twice;
/// - every number fits PostgreSQL's `numeric`, which `jsonb` stores numbers as (``NumericLimits``);
/// - nesting is at most ``maximumDepth`` deep.
///
/// While checking, it records the byte ranges of the string values of ``Field``s such as `data.signedTransactionInfo`,
/// so the decoder can splice the nested tokens' decoded JSON into the document in place.
struct JSONScanner {
    /// A string field one level below the top-level object, such as `data.signedTransactionInfo`.
    struct Field: Sendable {
        /// The UTF-8 key of the top-level member that holds the field (`data`).
        var container: [UInt8]
        /// The UTF-8 key of the field inside that member (`signedTransactionInfo`).
        var key: [UInt8]

        init(_ container: String, _ key: String) {
            self.container = Array(container.utf8)
            self.key = Array(key.utf8)
        }
    }

    /// Where and why the text is not acceptable JSON.
    struct SyntaxError: Error, Sendable {
        /// The byte offset of the problem from the start of the text.
        var offset: Int
        /// What is wrong, as a phrase.
        var message: String
    }

    /// The deepest nesting of objects and arrays accepted; Apple's payloads nest five levels at most.
    static let maximumDepth = 128

    /// Checks `data` and finds the string values of `fields`.
    /// - Parameters:
    ///   - data: the JSON text.
    ///   - fields: string fields to locate; at most 64.
    /// - Returns: for each field, the byte range (from `data.startIndex`, quotes included) of its string value, or
    ///   nil when the field is absent or not a string.
    /// - Throws: ``SyntaxError`` at the first problem.
    static func check(_ data: Data, locating fields: [Field] = []) throws(SyntaxError) -> [Range<Int>?] {
        try scan(data, locating: fields, recordingMembers: false).located
    }

    /// Checks `data`, finds the string values of `fields` and, when `recordingMembers`, lists the members of the
    /// top-level object and of the objects directly inside it (see ``Member``).
    static func scan(
        _ data: Data,
        locating fields: [Field],
        recordingMembers: Bool
    ) throws(SyntaxError) -> (located: [Range<Int>?], members: [Member]) {
        let result = data.withUnsafeBytes { buffer in
            Result { () throws(SyntaxError) -> ([Range<Int>?], [Member]) in
                var scanner = JSONScanner(bytes: buffer, fields: fields)
                scanner.isRecording = recordingMembers
                try scanner.scanDocument()
                return (scanner.located, scanner.members)
            }
        }
        return try result.get()
    }

    /// What kind of JSON value a member holds.
    enum Kind: Sendable {
        case string, escapedString, integer, fraction, `true`, `false`, null, object, array
    }

    /// A member of the top-level object, or of an object that is the value of one of its members.
    struct Member: Sendable {
        /// The index (in the member list) of the member whose object holds this one; -1 for the top level.
        var parent: Int
        /// The key's bytes between the quotes.
        var key: Range<Int>
        /// Whether the key holds escapes (its bytes are then not its text).
        var keyHasEscapes: Bool
        var kind: Kind
        /// The value's bytes; for a string, between the quotes.
        var value: Range<Int>
    }

    /// Where a value sits, as far as locating fields is concerned.
    private enum Place {
        /// The top-level value.
        case document
        /// A top-level member whose key is the container of the fields in the bit mask.
        case container(UInt64)
        /// The value of the field with this index.
        case field(Int)
        /// Anywhere else.
        case elsewhere
    }

    /// A string seen while scanning: its content between the quotes, and whether it holds escapes.
    private struct StringToken {
        var content: Range<Int>
        var hasEscapes: Bool
    }

    private let bytes: UnsafeRawBufferPointer
    private let fields: [Field]
    private var offset = 0
    private var located: [Range<Int>?]
    private var isRecording = false
    private var members: [Member] = []
    /// The keys of the objects being scanned, innermost last, to find duplicates.
    private var keys: [StringToken] = []

    private init(bytes: UnsafeRawBufferPointer, fields: [Field]) {
        self.bytes = bytes
        self.fields = fields
        self.located = Array(repeating: nil, count: fields.count)
    }

    // MARK: Structure

    private mutating func scanDocument() throws(SyntaxError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw SyntaxError(offset: 0, message: "the text starts with a byte-order mark")
        }
        skipWhitespace()
        try scanValue(depth: 0, place: .document, owner: isRecording ? -1 : nil)
        skipWhitespace()
        if offset < bytes.count {
            throw failure("unexpected \(describeByte()) after the JSON value")
        }
    }

    /// Scans one value. When it is an object and `owner` is set, its members are recorded with that parent.
    @discardableResult
    private mutating func scanValue(depth: Int, place: Place, owner: Int? = nil) throws(SyntaxError) -> Kind {
        guard offset < bytes.count else {
            throw failure("the text ends where a value should start")
        }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            try scanObject(depth: depth + 1, place: place, owner: owner)
            return .object
        case UInt8(ascii: "["):
            try scanArray(depth: depth + 1)
            return .array
        case UInt8(ascii: "\""):
            let start = offset
            let token = try scanString()
            if case .field(let index) = place {
                located[index] = start..<offset
            }
            return token.hasEscapes ? .escapedString : .string
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return .true
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return .false
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber() ? .integer : .fraction
        default:
            throw failure("expected a value, found \(describeByte())")
        }
    }

    private mutating func scanObject(depth: Int, place: Place, owner: Int?) throws(SyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw failure("objects and arrays nest more than \(Self.maximumDepth) levels deep")
        }
        offset += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        let firstKey = keys.count
        defer { keys.removeSubrange(firstKey...) }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw failure("expected a quoted key, found \(describeByte())")
            }
            let keyStart = offset
            let key = try scanString()
            for earlier in keys[firstKey...] where sameText(earlier, key) {
                throw SyntaxError(offset: keyStart, message: "the key \(quoted(key)) appears twice in one object")
            }
            keys.append(key)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw failure("expected ':' after a key, found \(describeByte())")
            }
            offset += 1
            skipWhitespace()
            if let owner {
                let index = members.count
                let valueStart = offset
                members.append(
                    Member(parent: owner, key: key.content, keyHasEscapes: key.hasEscapes, kind: .null, value: 0..<0))
                let kind = try scanValue(
                    depth: depth, place: memberPlace(in: place, key: key), owner: owner == -1 ? index : nil)
                members[index].kind = kind
                members[index].value =
                    kind == .string || kind == .escapedString ? (valueStart + 1)..<(offset - 1) : valueStart..<offset
            } else {
                try scanValue(depth: depth, place: memberPlace(in: place, key: key))
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                offset += 1
                return
            default:
                throw failure("expected ',' or '}' after an object member, found \(describeByte())")
            }
        }
    }

    private mutating func scanArray(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw failure("objects and arrays nest more than \(Self.maximumDepth) levels deep")
        }
        offset += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try scanValue(depth: depth, place: .elsewhere)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                offset += 1
                return
            default:
                throw failure("expected ',' or ']' after an array element, found \(describeByte())")
            }
        }
    }

    private func memberPlace(in place: Place, key: StringToken) -> Place {
        switch place {
        case .document:
            var mask: UInt64 = 0
            for (index, field) in fields.enumerated() where text(of: key, equals: field.container) {
                mask |= 1 << UInt64(index)
            }
            return mask == 0 ? .elsewhere : .container(mask)
        case .container(let mask):
            for (index, field) in fields.enumerated()
            where mask & (1 << UInt64(index)) != 0 && text(of: key, equals: field.key) {
                return .field(index)
            }
            return .elsewhere
        case .field, .elsewhere:
            return .elsewhere
        }
    }

    // MARK: Scalars

    private mutating func scanLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let start = offset
        let matches = literal.withUTF8Buffer { expected in
            start + count <= bytes.count && expected.indices.allSatisfy { expected[$0] == bytes[start + $0] }
        }
        guard matches else {
            throw failure("expected a value, found \(describeByte())")
        }
        offset += count
    }

    /// Scans a number; returns whether it is an integer (no fraction, no exponent).
    private mutating func scanNumber() throws(SyntaxError) -> Bool {
        let start = offset
        if peek() == UInt8(ascii: "-") {
            offset += 1
        }
        guard let first = peek(), isDigit(first) else {
            throw failure("expected a digit in a number, found \(describeByte())")
        }
        let integerStart = offset
        offset += 1
        if first == UInt8(ascii: "0") {
            if let next = peek(), isDigit(next) {
                throw failure("a number must not start with a leading zero")
            }
        } else {
            skipDigits()
        }
        let integerDigits = integerStart..<offset
        var fractionDigits = offset..<offset
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let digit = peek(), isDigit(digit) else {
                throw failure("expected a digit after a decimal point, found \(describeByte())")
            }
            let fractionStart = offset
            skipDigits()
            fractionDigits = fractionStart..<offset
        }
        var exponentDigits: Range<Int>?
        var exponentIsNegative = false
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
                exponentIsNegative = peek() == UInt8(ascii: "-")
                offset += 1
            }
            guard let digit = peek(), isDigit(digit) else {
                throw failure("expected a digit in an exponent, found \(describeByte())")
            }
            let exponentStart = offset
            skipDigits()
            exponentDigits = exponentStart..<offset
        }
        let isInteger = fractionDigits.isEmpty && exponentDigits == nil
        // An integer (every number of Apple's payloads) fits unless it has more digits than `numeric` keeps.
        if isInteger
            ? integerDigits.count > NumericLimits.maximumIntegerDigits
            : !fitsNumeric(
                integer: integerDigits, fraction: fractionDigits, exponent: exponentDigits,
                negativeExponent: exponentIsNegative)
        {
            offset = start
            throw failure("a number beyond PostgreSQL's numeric, which jsonb stores numbers as")
        }
        return isInteger
    }

    /// Whether the number with these digits is one PostgreSQL's `numeric` holds (``NumericLimits``).
    private func fitsNumeric(
        integer: Range<Int>, fraction: Range<Int>, exponent: Range<Int>?, negativeExponent: Bool
    ) -> Bool {
        // The exponent, saturated well past the limit (its digits may be many and led by zeros).
        var power = 0
        for index in exponent ?? offset..<offset {
            power = min(power * 10 + Int(bytes[index] &- UInt8(ascii: "0")), NumericLimits.exponentBound)
        }
        if negativeExponent { power = -power }
        guard abs(power) < NumericLimits.exponentBound else { return false }
        // Digits after the decimal point once the exponent has moved it.
        guard max(0, fraction.count - power) <= NumericLimits.maximumScale else { return false }
        // Digits before the point, counted from the first that is not zero; a zero has none.
        if let first = integer.first(where: { bytes[$0] != UInt8(ascii: "0") }) {
            return integer.upperBound - first + power <= NumericLimits.maximumIntegerDigits
        }
        if let first = fraction.first(where: { bytes[$0] != UInt8(ascii: "0") }) {
            return fraction.lowerBound - first + power <= NumericLimits.maximumIntegerDigits
        }
        return true
    }

    /// Scans a string starting at its opening quote and leaves `offset` after the closing quote.
    private mutating func scanString() throws(SyntaxError) -> StringToken {
        let quote = offset
        let start = offset + 1
        var index = start
        var hasEscapes = false
        while index < bytes.count {
            // Eight plain bytes at a time: the nested tokens are kilobytes of base64url inside one string.
            while index + 8 <= bytes.count, Self.arePlain(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                offset = index + 1
                return StringToken(content: start..<index, hasEscapes: hasEscapes)
            }
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\\") {
                // Plain ASCII, by far the most common case: the nested tokens are long base64url strings.
                index += 1
                continue
            }
            offset = index
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try scanEscape()
            } else if byte < 0x20 {
                throw failure("a control character (\(describeByte())) must be escaped inside a string")
            } else {
                try scanUTF8Sequence()
            }
            index = offset
        }
        throw SyntaxError(offset: quote, message: "a string is not closed")
    }

    /// Whether none of eight bytes is a quote, a backslash, a control character or non-ASCII (SWAR: each test
    /// sets a byte's high bit when that byte matches).
    private static func arePlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        let special = hasZeroByte(word ^ (ones &* 0x22)) | hasZeroByte(word ^ (ones &* 0x5C))
        return (word & highs) | control | special == 0
    }

    private mutating func scanEscape() throws(SyntaxError) {
        guard offset + 1 < bytes.count else {
            throw failure("the text ends inside an escape sequence")
        }
        switch bytes[offset + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 2
        case UInt8(ascii: "u"):
            let unit = try hexEscape(at: offset)
            switch unit {
            case 0:
                throw failure("\\u0000 is not allowed: PostgreSQL cannot store it in jsonb")
            case 0xD800...0xDBFF:
                guard let low = try? hexEscape(at: offset + 6), (0xDC00...0xDFFF).contains(low) else {
                    throw failure("a UTF-16 high surrogate escape is not followed by a low surrogate escape")
                }
                offset += 12
            case 0xDC00...0xDFFF:
                throw failure("a UTF-16 low surrogate escape has no high surrogate before it")
            default:
                offset += 6
            }
        default:
            offset += 1
            throw failure("\(describeByte()) is not a valid escape")
        }
    }

    /// Reads `\uXXXX` at `start` (the backslash) and returns the code unit.
    private func hexEscape(at start: Int) throws(SyntaxError) -> UInt16 {
        guard start + 6 <= bytes.count, bytes[start] == UInt8(ascii: "\\"), bytes[start + 1] == UInt8(ascii: "u") else {
            throw SyntaxError(offset: start, message: "expected a \\u escape with four hex digits")
        }
        var unit: UInt16 = 0
        for index in (start + 2)..<(start + 6) {
            guard let digit = hexValue(bytes[index]) else {
                throw SyntaxError(offset: start, message: "expected a \\u escape with four hex digits")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Checks one multi-byte UTF-8 sequence (Unicode table 3-7: no overlong forms, no surrogates, at most U+10FFFF).
    private mutating func scanUTF8Sequence() throws(SyntaxError) {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw failure("the text is not valid UTF-8 (\(describeByte()))")
        }
        guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else {
            throw failure("the text is not valid UTF-8 (\(describeByte()))")
        }
        for index in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[index]) {
            throw failure("the text is not valid UTF-8 (\(describeByte()))")
        }
        offset += length
    }

    // MARK: Helpers

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                offset += 1
            default:
                return
            }
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) {
            offset += 1
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func failure(_ message: String) -> SyntaxError {
        SyntaxError(offset: offset, message: message)
    }

    /// The byte at `offset` for a message: `'x'` when printable ASCII, else its hex value or the end of the text.
    private func describeByte() -> String {
        guard let byte = peek() else { return "the end of the text" }
        if (0x21...0x7E).contains(byte) {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }

    private func quoted(_ token: StringToken) -> String {
        "\"" + String(decoding: unescaped(token), as: UTF8.self) + "\""
    }

    // MARK: String comparison

    private func sameText(_ lhs: StringToken, _ rhs: StringToken) -> Bool {
        if !lhs.hasEscapes && !rhs.hasEscapes {
            return lhs.content.count == rhs.content.count
                && zip(lhs.content, rhs.content).allSatisfy { bytes[$0] == bytes[$1] }
        }
        return unescaped(lhs) == unescaped(rhs)
    }

    private func text(of token: StringToken, equals expected: [UInt8]) -> Bool {
        if token.hasEscapes {
            return unescaped(token) == expected
        }
        return token.content.count == expected.count
            && zip(token.content, expected).allSatisfy { bytes[$0] == $1 }
    }

    /// The UTF-8 text of a string that has already been checked.
    private func unescaped(_ token: StringToken) -> [UInt8] {
        guard token.hasEscapes else { return Array(bytes[token.content]) }
        var result: [UInt8] = []
        result.reserveCapacity(token.content.count)
        var index = token.content.lowerBound
        while index < token.content.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            switch escaped {
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                let high = (try? hexEscape(at: index)) ?? 0xFFFD
                var scalarValue = UInt32(high)
                if (0xD800...0xDBFF).contains(high), let low = try? hexEscape(at: index + 6),
                    (0xDC00...0xDFFF).contains(low)
                {
                    scalarValue = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(low - 0xDC00)
                    index += 6
                }
                UTF8.encode(Unicode.Scalar(scalarValue) ?? "\u{FFFD}") { result.append($0) }
                index += 6
                continue
            default: result.append(escaped)
            }
            index += 2
        }
        return result
    }
}

/// The numbers PostgreSQL's `numeric` holds, and so `jsonb` (PostgreSQL 15, `numeric.c`: `set_var_from_str` and
/// `make_result`): other text is refused with "value overflows numeric format", and with it the whole row of a COPY.
enum NumericLimits {
    /// At most 131 072 digits before the decimal point (a weight of 32 767 digits in base 10 000) once the exponent
    /// has moved it, counted from the first digit that is not zero.
    static let maximumIntegerDigits = 131_072
    /// At most 16 383 digits after it (the display scale), trailing zeros included.
    static let maximumScale = 16_383
    /// An exponent of `Int32.max / 2` or more, either way, is refused before anything else.
    static let exponentBound = Int(Int32.max / 2)
}
