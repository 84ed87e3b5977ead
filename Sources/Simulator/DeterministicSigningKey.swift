import Analysis
import Crypto
import Foundation
import SwiftASN1
import X509

/// A P-256 key that makes deterministic ECDSA signatures (RFC 6979, SHA-256): the same key and message always give
/// the same signature, so a simulated export is reproducible byte for byte.
///
/// Swift Crypto's own `signature(for:)` draws a random nonce, which is as valid but differs on every call. Both
/// verify the same way. The nonce comes from RFC 6979's HMAC-DRBG, the point k·G from Swift Crypto (the public key
/// of k), and s = k⁻¹(z + r·d) mod n from ``P256Scalar``.
///
/// The key also signs certificates (`CustomPrivateKey`), so a whole test PKI can be made deterministic.
/// - Important: For test data only. The arithmetic is not constant-time, and the keys usually come from a seed.
package struct DeterministicSigningKey: CustomPrivateKey {
    package let privateKey: P256.Signing.PrivateKey
    /// d as 32 big-endian bytes.
    private let secret: [UInt8]
    private let scalar: P256Scalar

    /// Wraps a key.
    /// - Throws: ``SimulationError`` if the key's scalar cannot be read (it always can for a valid key).
    package init(_ privateKey: P256.Signing.PrivateKey) throws {
        let secret = Array(privateKey.rawRepresentation)
        guard let scalar = P256Scalar(reducing: secret) else {
            throw SimulationError.signing("the private key is not 32 bytes")
        }
        self.privateKey = privateKey
        self.secret = secret
        self.scalar = scalar
    }

    /// A key drawn from `generator`: 32 random bytes, drawn again until they are a valid scalar (1..<n).
    /// - Throws: ``SimulationError`` if Swift Crypto refuses the scalar (it does not for one in range).
    package init(drawingFrom generator: inout SplitMix64) throws {
        var bytes: [UInt8] = []
        repeat {
            bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next().bigEndian, Array.init) }
        } while !P256Scalar.isValidNonzero(bytes)
        try self.init(P256.Signing.PrivateKey(rawRepresentation: bytes))
    }

    /// The 64-byte `r‖s` signature of SHA-256(`message`), as JWS ES256 wants it.
    /// - Throws: ``SimulationError`` in the (astronomically unlikely) case that no nonce in 16 tries gives a
    ///   signature, or if Swift Crypto refuses a nonce it should accept.
    package func rawSignature(for message: some DataProtocol) throws -> [UInt8] {
        let digest = Array(SHA256.hash(data: message))
        guard let z = P256Scalar(reducing: digest) else {
            throw SimulationError.signing("a SHA-256 digest is not 32 bytes")
        }
        // RFC 6979 §3.2, with qlen = hlen = 256: bits2octets(h1) is the digest reduced modulo n.
        let digestOctets = z.bigEndianBytes
        var v = [UInt8](repeating: 0x01, count: 32)
        var k = [UInt8](repeating: 0x00, count: 32)
        k = Self.mac(v + [0x00] + secret + digestOctets, k)
        v = Self.mac(v, k)
        k = Self.mac(v + [0x01] + secret + digestOctets, k)
        v = Self.mac(v, k)
        for _ in 0..<16 {
            v = Self.mac(v, k)
            if P256Scalar.isValidNonzero(v), let nonce = P256Scalar(reducing: v) {
                let point = try P256.Signing.PrivateKey(rawRepresentation: v).publicKey.rawRepresentation
                if let r = P256Scalar(reducing: point.prefix(32)), !r.isZero {
                    let s = nonce.inverse().multiplied(by: z.adding(r.multiplied(by: scalar)))
                    if !s.isZero { return r.bigEndianBytes + s.bigEndianBytes }
                }
            }
            k = Self.mac(v + [0x00], k)
            v = Self.mac(v, k)
        }
        throw SimulationError.signing("no usable nonce in 16 tries")
    }

    /// HMAC-SHA256 (RFC 2104) of `message` under a 32-byte `key`, as `HMAC<SHA256>` computes it, from two SHA-256
    /// hashes: without the `SymmetricKey` that `HMAC` sets up for every call, a signature costs a fifth less, and
    /// the tests sign thousands of notifications. `DeterministicSigningTests` holds it to `HMAC<SHA256>`.
    package static func mac(_ message: [UInt8], _ key: [UInt8]) -> [UInt8] {
        // A key of at most a block (64 bytes) is padded with zeros; RFC 6979 uses 32-byte keys only.
        var inner = SHA256()
        inner.update(data: key.map { $0 ^ 0x36 } + [UInt8](repeating: 0x36, count: 64 - key.count))
        inner.update(data: message)
        var outer = SHA256()
        outer.update(data: key.map { $0 ^ 0x5c } + [UInt8](repeating: 0x5c, count: 64 - key.count))
        outer.update(data: Array(inner.finalize()))
        return Array(outer.finalize())
    }

    // MARK: CustomPrivateKey

    package var publicKey: Certificate.PublicKey {
        Certificate.PublicKey(privateKey.publicKey)
    }

    package var defaultSignatureAlgorithm: Certificate.SignatureAlgorithm { .ecdsaWithSHA256 }

    package var supportedSignatureAlgorithms: [Certificate.SignatureAlgorithm] { [.ecdsaWithSHA256] }

    package func signSynchronously(
        bytes: some DataProtocol,
        signatureAlgorithm: Certificate.SignatureAlgorithm
    ) throws -> Certificate.Signature {
        guard signatureAlgorithm == .ecdsaWithSHA256 else {
            throw SimulationError.signing("only ecdsa-with-SHA256 is supported, not \(signatureAlgorithm)")
        }
        let raw = try rawSignature(for: bytes)
        let der = try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
        return try Certificate.Signature(
            signatureAlgorithm: signatureAlgorithm,
            signatureBytes: ASN1BitString(bytes: ArraySlice(der))
        )
    }

    package static var defaultPEMDiscriminator: String { "PRIVATE KEY" }

    package func serialize(into coder: inout DER.Serializer) throws {
        coder.serializeRawBytes(privateKey.derRepresentation)
    }

    package static func == (lhs: DeterministicSigningKey, rhs: DeterministicSigningKey) -> Bool {
        lhs.secret == rhs.secret
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(secret)
    }
}
