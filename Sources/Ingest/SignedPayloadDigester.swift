import Crypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SHA-256 of signed payloads (``StoredPayloads/digest(of:)``), one line after another, sharing the hashing of a
/// header between the tokens that carry it.
///
/// A compact JWS begins with its header's text, about 3 KB of `x5c` certificates, the same in every token signed with
/// one certificate chain: the SHA-256 state after the header's whole 64-byte blocks is kept, and a token that begins
/// with the same bytes continues from it. The digest is SHA-256 of the token's bytes as ever: the kept state is what
/// hashing those same bytes from the start gives, and only a token whose leading bytes equal them continues from it.
struct SignedPayloadDigester {
    /// The header's whole blocks last hashed, and the state after them.
    private var header: [UInt8] = []
    private var headerState = SHA256()

    /// The SHA-256 of `bytes[token]`, the same as ``StoredPayloads/digest(of:)`` gives.
    mutating func digest(of bytes: [UInt8], token: Range<Int>) -> SHA256Digest {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: "."), from: token.lowerBound), dot < token.upperBound else {
            return StoredPayloads.digest(of: bytes[token])
        }
        let length = (dot - token.lowerBound) / SHA256.blockByteCount * SHA256.blockByteCount
        guard length > 0 else { return StoredPayloads.digest(of: bytes[token]) }
        let blocks = token.lowerBound..<(token.lowerBound + length)
        return bytes.withUnsafeBytes { buffer in
            let prefix = UnsafeRawBufferPointer(rebasing: buffer[blocks])
            if !isHeader(prefix) {
                header = Array(prefix)
                headerState = SHA256()
                headerState.update(bufferPointer: prefix)
            }
            var hasher = headerState
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[blocks.upperBound..<token.upperBound]))
            return hasher.finalize()
        }
    }

    /// Whether `prefix` is the kept header's bytes.
    private func isHeader(_ prefix: UnsafeRawBufferPointer) -> Bool {
        header.count == prefix.count
            && header.withUnsafeBytes { kept in
                guard let a = kept.baseAddress, let b = prefix.baseAddress else { return true }
                return memcmp(a, b, kept.count) == 0
            }
    }
}
