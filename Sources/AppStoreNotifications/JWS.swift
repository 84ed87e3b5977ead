import Foundation
import Synchronization

/// A JWS in compact serialization (`header.payload.signature`), split and base64url-decoded but not verified.
///
/// Apple signs every App Store Server Notification, transaction and renewal info this way.
/// Parsing proves nothing about who made the token: ``JWSVerifier`` does that.
package struct JWS: Sendable {
    /// The decoded protected header.
    package var header: JWSHeader
    /// The decoded payload bytes (JSON for every token Apple sends).
    package var payload: Data
    /// The decoded signature bytes (64 bytes `r‖s` for ES256).
    package var signature: Data
    /// The bytes the signature covers: the ASCII text `base64url(header).base64url(payload)`.
    package var signingInput: Data

    /// Shared by all calls: `JSONDecoder` is `Sendable` and safe to use from several threads at once.
    private static let headerDecoder = JSONDecoder()

    /// Decoded headers by their base64url text. Every token signed with one certificate chain carries the same
    /// header (about 2 KB, mostly `x5c`), so a batch job decodes each distinct header once instead of per token.
    private static let headerCache = Mutex<[HeaderText: JWSHeader]>([:])
    private static let headerCacheCapacity = 256

    /// A header's base64url text as a dictionary key. Equality compares every byte; the hash takes the length and
    /// a few windows across the text (headers run to 2 KB and a token carries up to three), which is enough to
    /// tell certificate chains apart.
    private struct HeaderText: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { buffer in
                let window = min(32, buffer.count)
                for eighth in stride(from: 1, through: 7, by: 2) {
                    let start = min(buffer.count - window, buffer.count * eighth / 8)
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + window)]))
                }
            }
        }

        static func == (lhs: HeaderText, rhs: HeaderText) -> Bool {
            lhs.bytes.count == rhs.bytes.count
                && lhs.bytes.withUnsafeBytes { left in
                    rhs.bytes.withUnsafeBytes { right in
                        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
                        return memcmp(a, b, left.count) == 0
                    }
                }
        }
    }

    private static func decodeHeader(_ slice: ArraySlice<UInt8>) throws(JWSError) -> JWSHeader {
        let text = HeaderText(bytes: Array(slice))
        if let cached = headerCache.withLock({ $0[text] }) { return cached }
        guard let headerData = Base64URL.decode(slice) else { throw .badBase64(.header) }
        let header: JWSHeader
        do {
            header = try headerDecoder.decode(JWSHeader.self, from: headerData)
        } catch {
            throw .badHeader
        }
        headerCache.withLock { cache in
            if cache.count >= headerCacheCapacity { cache.removeAll(keepingCapacity: true) }
            cache[text] = header
        }
        return header
    }

    /// Splits and decodes a compact JWS.
    /// - Parameter token: the compact serialization; surrounding white space is not allowed.
    /// - Returns: the decoded header, payload and signature, and the signing input.
    /// - Throws: ``JWSError`` naming the segment that is malformed.
    package static func parse(_ token: some StringProtocol) throws(JWSError) -> JWS {
        var utf8 = Array(token.utf8)
        return try parse(bytes: &utf8)
    }

    /// Splits and decodes a compact JWS given as UTF-8 bytes.
    package static func parse(bytes: inout [UInt8]) throws(JWSError) -> JWS {
        guard !bytes.isEmpty else { throw .empty }
        // memchr: tokens run to 20 KB, and the search goes to the end to be sure there is no third dot.
        let dots = bytes.withUnsafeBytes { buffer in
            var dots: [Int] = []
            guard let base = buffer.baseAddress else { return dots }
            var start = 0
            while dots.count < 3, start < buffer.count, let found = memchr(base + start, Int32(UInt8(ascii: ".")), buffer.count - start) {
                let index = base.distance(to: UnsafeRawPointer(found))
                dots.append(index)
                start = index + 1
            }
            return dots
        }
        guard dots.count == 2 else { throw .wrongSegmentCount(dots.count + 1) }
        let headerBytes = bytes[..<dots[0]]
        let payloadBytes = bytes[(dots[0] + 1)..<dots[1]]
        let signatureBytes = bytes[(dots[1] + 1)...]
        let header = try decodeHeader(headerBytes)
        guard let payload = Base64URL.decode(payloadBytes) else { throw .badBase64(.payload) }
        guard let signature = Base64URL.decode(signatureBytes) else { throw .badBase64(.signature) }
        return JWS(
            header: header,
            payload: payload,
            signature: signature,
            signingInput: Data(bytes[..<dots[1]])
        )
    }
}

/// The protected header of a JWS as Apple writes it: `{"alg":"ES256","x5c":[leaf, intermediate, root]}`.
package struct JWSHeader: Codable, Hashable, Sendable {
    /// The signature algorithm; Apple uses `ES256`.
    package var alg: String?
    /// The certificate chain, each entry standard base64 (not base64url) DER, leaf first.
    package var x5c: [String]?
    /// `JWT` in Apple's test mocks and Xcode tokens; absent in real tokens.
    package var typ: String?
    /// Key identifier, set by StoreKit Testing in Xcode.
    package var kid: String?

    package init(alg: String? = nil, x5c: [String]? = nil, typ: String? = nil, kid: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.typ = typ
        self.kid = kid
    }
}

/// Why a compact JWS could not be split or decoded.
package enum JWSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which of the three parts of a compact JWS.
    package enum Segment: String, Sendable {
        case header, payload, signature
    }

    case empty
    case wrongSegmentCount(Int)
    case badBase64(Segment)
    case badHeader

    package var description: String {
        switch self {
        case .empty:
            return "the JWS is empty"
        case .wrongSegmentCount(let count):
            return "a compact JWS has 3 dot-separated parts, this one has \(count)"
        case .badBase64(let segment):
            return "the JWS \(segment.rawValue) is not valid base64url"
        case .badHeader:
            return "the JWS header is not a JSON object with string fields alg, x5c, typ, kid"
        }
    }
}

/// base64url (RFC 4648 §5) without padding, as JWS uses it.
package enum Base64URL {
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        // Accept the standard alphabet too: some exporters re-encode with `+` and `/`.
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    private static let encodeTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decodes base64url text; trailing `=` padding is tolerated. Returns nil on any other character
    /// or an impossible length.
    package static func decode(_ text: some Collection<UInt8>) -> Data? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) {
            return decoded
        }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// Decodes into a buffer sized up front, four characters to three bytes at a time: appending to `Data` byte by
    /// byte costs more than the decoding itself.
    private static func decode(buffer input: UnsafeBufferPointer<UInt8>) -> Data? {
        var end = input.count
        while end > 0 && input[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if end % 4 == 1 { return nil }
        var output = Data(count: end * 3 / 4)
        let isValid = output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
            decodeTable.withUnsafeBufferPointer { table -> Bool in
                var read = 0
                var written = 0
                while read + 4 <= end {
                    let a = table[Int(input[read])]
                    let b = table[Int(input[read + 1])]
                    let c = table[Int(input[read + 2])]
                    let d = table[Int(input[read + 3])]
                    // Valid values are below 64; the invalid marker 0xFF has the top bit set.
                    if (a | b | c | d) & 0x80 != 0 { return false }
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: group >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: group)
                    read += 4
                    written += 3
                }
                // The last 2 or 3 characters carry 1 or 2 bytes.
                var group: UInt32 = 0
                for index in read..<end {
                    let value = table[Int(input[index])]
                    if value == 0xFF { return false }
                    group = group << 6 | UInt32(value)
                }
                switch end - read {
                case 2:
                    out[written] = UInt8(truncatingIfNeeded: group >> 4)
                case 3:
                    out[written] = UInt8(truncatingIfNeeded: group >> 10)
                    out[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
                default:
                    break
                }
                return true
            }
        }
        return isValid ? output : nil
    }

    /// Encodes bytes as base64url without padding.
    package static func encode(_ data: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((data.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in data {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(encodeTable[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 {
            output.append(encodeTable[Int((accumulator << UInt32(6 - bits)) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
