import AppStoreNotifications
import Crypto
import Foundation
import SwiftASN1
import X509

/// Signs payloads as ES256 compact JWS the way Apple does: header `{"alg":"ES256","x5c":[leaf, intermediate, root]}`
/// with standard-base64 DER certificates, signature 64 bytes `r‖s`.
///
/// For the simulator and tests; ``TestCertificateAuthority`` makes a whole test PKI with a signer. Nothing checks that
/// the key belongs to the leaf: a mismatched pair makes tokens that ``JWSVerifier`` refuses as `bad_signature`.
package struct JWSSigner: Sendable {
    /// The key that signs; its public half should be the leaf's.
    package let privateKey: P256.Signing.PrivateKey
    /// The header's `x5c`: standard base64 DER, leaf first.
    package let x5c: [String]
    /// `base64url(header)`, the same for every token.
    private let encodedHeader: String

    /// Creates a signer from a key and the chain to put in the header.
    /// - Parameters:
    ///   - privateKey: the leaf's private key.
    ///   - chain: leaf, intermediate and root, in that order.
    /// - Throws: when a certificate cannot be serialized.
    package init(privateKey: P256.Signing.PrivateKey, chain: [Certificate]) throws {
        try self.init(privateKey: privateKey, x5c: Self.x5c(for: chain))
    }

    /// Creates a signer from PEM text, as Apple's test PKI ships it (`testLeaf.key`, `testLeaf.pem`, …).
    /// - Parameters:
    ///   - privateKeyPEM: a P-256 key, SEC1 (`EC PRIVATE KEY`) or PKCS #8 (`PRIVATE KEY`).
    ///   - chainPEM: one PEM certificate each for leaf, intermediate and root, in that order.
    /// - Throws: when the key or a certificate is not readable PEM.
    package init(privateKeyPEM: String, chainPEM: [String]) throws {
        try self.init(
            privateKey: P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM),
            chain: chainPEM.map { try Certificate(pemEncoded: $0) }
        )
    }

    /// Creates a signer with `x5c` exactly as given (for tokens whose header must be odd on purpose).
    /// - Throws: when the header cannot be encoded.
    package init(privateKey: P256.Signing.PrivateKey, x5c: [String]) throws {
        self.privateKey = privateKey
        self.x5c = x5c
        self.encodedHeader = try Self.encodedHeader(x5c: x5c)
    }

    /// The header's `x5c` for `chain`: each certificate as standard base64 of its DER, in the chain's order.
    /// - Throws: when a certificate cannot be serialized.
    package static func x5c(for chain: [Certificate]) throws -> [String] {
        try chain.map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes).base64EncodedString()
        }
    }

    /// `base64url` of the header `{"alg":"ES256","x5c":[…]}` (keys sorted, `/` unescaped) that every token of a
    /// signer with this `x5c` carries.
    /// - Throws: when the header cannot be encoded.
    package static func encodedHeader(x5c: [String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(JWSHeader(alg: "ES256", x5c: x5c)))
    }

    /// Signs `payload` (JSON, for every token Apple makes).
    /// - Returns: the compact JWS `base64url(header).base64url(payload).base64url(signature)`.
    /// - Throws: when signing fails.
    package func sign(_ payload: Data) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(payload)
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
