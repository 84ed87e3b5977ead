import AppStoreNotifications
import Foundation
import TestPKI
import X509

/// Signs payloads as ES256 compact JWS the way Apple does (`{"alg":"ES256","x5c":[leaf, intermediate, root]}`,
/// standard-base64 DER certificates, 64-byte `r‖s` signature), deterministically: the same key, chain and payload
/// always give the same token.
///
/// `JWSSigner` makes the same tokens with random nonces; ``JWSVerifier`` accepts both.
package struct DeterministicJWSSigner: Sendable {
    package let key: DeterministicSigningKey
    /// The header's `x5c`: standard base64 DER, leaf first.
    package let x5c: [String]
    /// `base64url(header) + "."`, the same for every token.
    private let headerPrefix: [UInt8]

    /// Creates a signer.
    /// - Parameters:
    ///   - key: the leaf's private key.
    ///   - chain: leaf, intermediate and root, in that order.
    /// - Throws: when a certificate or the header cannot be serialized.
    package init(key: DeterministicSigningKey, chain: [Certificate]) throws {
        let x5c = try JWSSigner.x5c(for: chain)
        self.key = key
        self.x5c = x5c
        self.headerPrefix = Array((try JWSSigner.encodedHeader(x5c: x5c) + ".").utf8)
    }

    /// Creates a deterministic signer for a `TestCertificateAuthority`'s leaf.
    /// - Throws: when a certificate or the header cannot be serialized.
    package init(authority: TestCertificateAuthority) throws {
        try self.init(
            key: DeterministicSigningKey(authority.leafKey),
            chain: [authority.leaf, authority.intermediate, authority.root]
        )
    }

    /// Signs `payload`.
    /// - Returns: the compact JWS `base64url(header).base64url(payload).base64url(signature)`.
    /// - Throws: when signing fails.
    package func sign(_ payload: Data) throws -> String {
        var token = headerPrefix
        token.reserveCapacity(headerPrefix.count + payload.count * 4 / 3 + 90)
        token += payload.withUnsafeBytes { Base64URL.encodedUTF8($0) }
        let signature = try key.rawSignature(for: token)
        token.append(UInt8(ascii: "."))
        token += signature.withUnsafeBytes { Base64URL.encodedUTF8($0) }
        return String(decoding: token, as: UTF8.self)
    }
}
