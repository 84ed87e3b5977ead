#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shapes of an export line that hold one signed payload and are recognised on the line's bytes, without a JSON
/// parser or a string of the whole line: `{"signedPayload":"<token>"}` and a bare compact JWS. Every other line goes
/// through the JSON decoder (``RecordDecoder``). No dependency beyond the C library, so that a fuzz target reads
/// these shapes as the loader does.
enum RecordShape {
    /// The token of a line that holds one signed payload in a shape recognised on its bytes
    /// (``fastSignedPayload(_:_:)`` or ``bareToken(_:_:)``), the one ``RecordDecoder/decode(_:)`` reads first; nil
    /// for any other line.
    static func signedPayloadToken(_ bytes: [UInt8]) -> Range<Int>? {
        let trimmed = trimmedRange(bytes)
        return fastSignedPayload(bytes, trimmed) ?? bareToken(bytes, trimmed)
    }

    /// The line without surrounding spaces, tabs and carriage returns.
    static func trimmedRange(_ bytes: [UInt8]) -> Range<Int> {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 || bytes[lower] == 0x0D { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 || bytes[upper - 1] == 0x0D {
            upper -= 1
        }
        return lower..<upper
    }

    /// The token of exactly `{"signedPayload":"<token>"}` with a plain token (no escape in it), found without a JSON
    /// parser.
    static func fastSignedPayload(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        let prefix = Self.envelopePrefix
        let suffix: [UInt8] = [0x22, 0x7D]
        guard range.count > prefix.count + suffix.count,
            bytes[range.lowerBound..<(range.lowerBound + prefix.count)].elementsEqual(prefix),
            bytes[(range.upperBound - 2)..<range.upperBound].elementsEqual(suffix)
        else { return nil }
        let token = (range.lowerBound + prefix.count)..<(range.upperBound - 2)
        // A backslash begins a JSON escape, which means another character: such a line is read as JSON.
        guard isToken(bytes, token), !contains(UInt8(ascii: "\\"), in: bytes, token) else { return nil }
        return token
    }

    /// Whether `byte` occurs in `bytes[range]`, searched with `memchr`.
    private static func contains(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty else { return false }
            return memchr(base + range.lowerBound, Int32(byte), range.count) != nil
        }
    }

    /// A bare compact JWS line.
    static func bareToken(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        guard !range.isEmpty, isToken(bytes, range) else { return nil }
        return range
    }

    private static let envelopePrefix = Array("{\"signedPayload\":\"".utf8)

    /// Whether the range looks like a compact JWS: token characters in its first bytes and the first dot. The rest
    /// is checked by base64url decoding, which refuses any other character.
    ///
    /// The header before the first dot runs to 3 KB: eight bytes at a time are looked up and their flags combined,
    /// and the eight that hold the dot or a stranger are then read one by one.
    private static func isToken(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            headerCharacters.withUnsafeBufferPointer { table in
                var index = range.lowerBound
                while index + 8 <= range.upperBound {
                    let all =
                        table[Int(buffer[index])] & table[Int(buffer[index + 1])] & table[Int(buffer[index + 2])]
                        & table[Int(buffer[index + 3])] & table[Int(buffer[index + 4])] & table[Int(buffer[index + 5])]
                        & table[Int(buffer[index + 6])] & table[Int(buffer[index + 7])]
                    if all == 0 { break }
                    index += 8
                }
                while index < range.upperBound {
                    let byte = buffer[index]
                    if byte == UInt8(ascii: ".") { return index > range.lowerBound }
                    if table[Int(byte)] == 0 { return false }
                    index += 1
                }
                return false
            }
        }
    }

    /// For every byte value, 1 when it is a token character other than the dot (``isTokenCharacter(_:)``), else 0.
    private static let headerCharacters: [UInt8] = (0...255).map {
        isTokenCharacter(UInt8($0)) && $0 != Int(UInt8(ascii: ".")) ? 1 : 0
    }

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "="), UInt8(ascii: "+"),
            UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
