import Crypto
import Foundation

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
    /// The bytes the signature covers: the ASCII text `base64url(header).base64url(payload)`, a slice of the token.
    package var signingInput: ArraySlice<UInt8>
    /// The SHA-256 state after the whole 64-byte blocks of the header's text, with which ``signingInput`` begins.
    private var headerHashing: HeaderHashing

    /// The SHA-256 of ``signingInput``: what the signature signs. Tokens with one header share the hashing of its
    /// whole blocks (about a fifth of a notification's signing input), done once per header.
    package func signingInputDigest() -> SHA256.Digest {
        var hasher = headerHashing.state
        signingInput.withUnsafeBytes { bytes in
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[headerHashing.length...]))
        }
        return hasher.finalize()
    }

    /// A header as decoded once and kept: its value, and the hashing of its text's whole blocks.
    private struct HeaderHashing: Sendable {
        /// SHA-256 after the first ``length`` bytes of the header's text.
        var state: SHA256
        /// A multiple of SHA-256's 64-byte block.
        var length: Int

        init(_ text: ArraySlice<UInt8>) {
            state = SHA256()
            length = text.count / SHA256.blockByteCount * SHA256.blockByteCount
            text.withUnsafeBytes { state.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<length])) }
        }
    }

    /// Shared by all calls: `JSONDecoder` is `Sendable` and safe to use from several threads at once.
    private static let headerDecoder = JSONDecoder()

    /// Decoded headers by their base64url text. Every token signed with one certificate chain carries the same
    /// header (about 2 KB, mostly `x5c`), so a batch job decodes each distinct header once instead of per token.
    private static let headerCache = SharedCache<[UInt8], (header: JWSHeader, hashing: HeaderHashing)>(capacity: 256)

    /// A header text's hash for ``headerCache``: its length and a few windows across it (headers run to 2 KB and a
    /// token carries up to three), which is enough to tell certificate chains apart.
    private static func hash(header bytes: ArraySlice<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { buffer in
            let window = min(32, buffer.count)
            for eighth in stride(from: 1, through: 7, by: 2) {
                let start = min(buffer.count - window, buffer.count * eighth / 8)
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + window)]))
            }
        }
        return hasher.finalize()
    }

    /// Whether two header texts are the same bytes.
    private static func isSame(_ stored: [UInt8], _ text: ArraySlice<UInt8>) -> Bool {
        stored.count == text.count
            && stored.withUnsafeBytes { left in
                text.withUnsafeBytes { right in
                    guard let a = left.baseAddress, let b = right.baseAddress else { return true }
                    return memcmp(a, b, left.count) == 0
                }
            }
    }

    /// The decoded header, from the cache when a token with the same header text came before. A key stored in the
    /// cache is a copy of the text, so that the cache does not keep a whole line alive.
    private static func decodeHeader(
        _ slice: ArraySlice<UInt8>
    ) throws(JWSError) -> (header: JWSHeader, hashing: HeaderHashing) {
        let hash = hash(header: slice)
        if let cached = headerCache.value(hash: hash, isKey: { isSame($0, slice) }) { return cached }
        guard let headerData = Base64URL.decode(slice) else { throw .badBase64(.header) }
        let header: JWSHeader
        do {
            header = try headerDecoder.decode(JWSHeader.self, from: headerData)
        } catch {
            throw .badHeader
        }
        let decoded = (header: header, hashing: HeaderHashing(slice))
        headerCache.insert(decoded, for: Array(slice), hash: hash)
        return decoded
    }

    /// Splits and decodes a compact JWS.
    /// - Parameter token: the compact serialization; surrounding white space is not allowed.
    /// - Returns: the decoded header, payload and signature, and the signing input.
    /// - Throws: ``JWSError`` naming the segment that is malformed.
    package static func parse(_ token: some StringProtocol) throws(JWSError) -> JWS {
        try parse(bytes: Array(token.utf8)[...])
    }

    /// Splits and decodes a compact JWS given as UTF-8 bytes. The JWS keeps the bytes (its signing input is a slice
    /// of them) rather than a copy.
    package static func parse(bytes: ArraySlice<UInt8>) throws(JWSError) -> JWS {
        guard !bytes.isEmpty else { throw .empty }
        // memchr: tokens run to 20 KB, and the search goes to the end to be sure there is no third dot.
        let dots = bytes.withUnsafeBytes { buffer in
            var dots: [Int] = []
            guard let base = buffer.baseAddress else { return dots }
            var start = 0
            while dots.count < 3, start < buffer.count,
                let found = memchr(base + start, Int32(UInt8(ascii: ".")), buffer.count - start)
            {
                let offset = base.distance(to: UnsafeRawPointer(found))
                dots.append(bytes.startIndex + offset)
                start = offset + 1
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
            header: header.header,
            payload: payload,
            signature: signature,
            signingInput: bytes[..<dots[1]],
            headerHashing: header.hashing
        )
    }
}
