import Analysis
import AppStoreNotifications
import Crypto
import Foundation
import SwiftASN1
import TestPKI
import X509

/// A three-level test PKI shaped like Apple's App Store signing chain, made entirely from a seed: the same seed gives
/// the same keys, serial numbers, certificates and signatures, so the root file and every `x5c` of an export repeat
/// exactly.
///
/// It has the shape of `TestCertificateAuthority` (which makes fresh random keys on every `init`): P-256 keys, an
/// intermediate CA (path length 0) with Apple's WWDR marker 1.2.840.113635.100.6.2.1, a leaf with the receipt-signing
/// marker 1.2.840.113635.100.6.11.1. All signatures, certificates included, are RFC 6979 deterministic.
/// - Important: Anyone who knows the seed can make the keys. Trust its root for simulated data only.
package struct SeededCertificateAuthority: Sendable {
    package let root: Certificate
    package let intermediate: Certificate
    package let leaf: Certificate
    /// The leaf's key: the one that signs tokens.
    package let leafKey: DeterministicSigningKey

    /// Creates the three certificates.
    /// - Parameters:
    ///   - seed: where keys and serial numbers come from.
    ///   - name: the organization in every subject ("<name> Root CA", "<name> Intermediate CA", "<name> Signing").
    ///   - validity: notValidBefore...notValidAfter of all three certificates; it must cover every `signedDate`.
    /// - Throws: when a certificate cannot be built.
    package init(seed: UInt64, name: String = "InvoluntaryChurn Simulator", validity: ClosedRange<Date>) throws {
        var generator = SplitMix64(seed: seed, index: 0, stream: 0xCA)
        let rootKey = try DeterministicSigningKey(drawingFrom: &generator)
        let intermediateKey = try DeterministicSigningKey(drawingFrom: &generator)
        let leafKey = try DeterministicSigningKey(drawingFrom: &generator)
        let serials = [Self.serialNumber(&generator), Self.serialNumber(&generator), Self.serialNumber(&generator)]
        let chain = try TestCertificateAuthority.makeChain(
            name: name,
            rootKey: Certificate.PrivateKey(rootKey),
            intermediateKey: Certificate.PrivateKey(intermediateKey),
            leafPublicKey: leafKey.publicKey,
            serialNumbers: serials,
            validity: [validity, validity, validity]
        )
        self.root = chain.root
        self.intermediate = chain.intermediate
        self.leaf = chain.leaf
        self.leafKey = leafKey
    }

    /// The root certificate as DER, for a trust-root file (`churn load --trust-root`).
    package func rootDER() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(root)
        return serializer.serializedBytes
    }

    /// A signer that puts leaf, intermediate and root in `x5c` and signs with the leaf's key.
    package func signer() throws -> DeterministicJWSSigner {
        try DeterministicJWSSigner(key: leafKey, chain: [leaf, intermediate, root])
    }

    /// 16 random bytes, positive and without a leading zero byte (a canonical DER INTEGER).
    private static func serialNumber(_ generator: inout SplitMix64) -> Certificate.SerialNumber {
        var bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: generator.next().bigEndian, Array.init) }
        bytes[0] = bytes[0] & 0x7F | 0x40
        return Certificate.SerialNumber(bytes: bytes)
    }
}
