import AppStoreNotifications
import Crypto
import Foundation
import SwiftASN1
import X509

/// A fresh three-level test PKI shaped like Apple's App Store signing chain, for the simulator and tests.
///
/// All keys are P-256 and new on every `init`. The intermediate is a CA (path length 0) with Apple's WWDR marker
/// 1.2.840.113635.100.6.2.1; the leaf carries the receipt-signing marker 1.2.840.113635.100.6.11.1. Trust its root
/// (``rootDER()`` or ``rootPEM()``) in a ``JWSVerifier`` and sign with ``signer()``.
///
/// Apple's own test PKI (`testLeaf.key`, `testLeaf.pem`, `testIntermediate.pem`, `testCA.pem`) needs no authority:
/// ``JWSSigner/init(privateKeyPEM:chainPEM:)`` loads it, and `testCA.der` is the root to trust.
package struct TestCertificateAuthority: Sendable {
    /// 2020-01-01T00:00:00Z ... 2040-01-01T00:00:00Z, the default validity of all three certificates.
    package static let defaultValidity: ClosedRange<Date> =
        Date(timeIntervalSince1970: 1_577_836_800)...Date(timeIntervalSince1970: 2_208_988_800)

    package let root: Certificate
    package let intermediate: Certificate
    package let leaf: Certificate
    /// The leaf's private key: the one that signs tokens.
    package let leafKey: P256.Signing.PrivateKey

    /// Creates the three certificates.
    /// - Parameters:
    ///   - name: the organization in every subject; certificates are named "<name> Root CA", "<name> Intermediate
    ///     CA" and "<name> Signing".
    ///   - rootValidity: notValidBefore...notValidAfter of the root.
    ///   - intermediateValidity: the same for the intermediate.
    ///   - leafValidity: the same for the leaf.
    /// - Throws: when a certificate cannot be built.
    package init(
        name: String = "Test",
        rootValidity: ClosedRange<Date> = defaultValidity,
        intermediateValidity: ClosedRange<Date> = defaultValidity,
        leafValidity: ClosedRange<Date> = defaultValidity
    ) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let chain = try Self.makeChain(
            name: name,
            rootKey: Certificate.PrivateKey(rootKey),
            intermediateKey: Certificate.PrivateKey(intermediateKey),
            leafPublicKey: Certificate.PublicKey(leafKey.publicKey),
            serialNumbers: [Certificate.SerialNumber(), Certificate.SerialNumber(), Certificate.SerialNumber()],
            validity: [rootValidity, intermediateValidity, leafValidity]
        )
        self.root = chain.root
        self.intermediate = chain.intermediate
        self.leaf = chain.leaf
        self.leafKey = leafKey
    }

    /// Builds a root, an intermediate carrying Apple's intermediate marker OID and a leaf carrying Apple's
    /// receipt-signing OID, named after `name`: the shape of Apple's real chain, with any keys.
    /// - Parameters:
    ///   - serialNumbers: for the root, the intermediate and the leaf, in that order.
    ///   - validity: notValidBefore...notValidAfter of the root, the intermediate and the leaf, in that order.
    /// - Throws: when a certificate cannot be built (for example with fewer than 3 serial numbers or validities).
    package static func makeChain(
        name: String,
        rootKey: Certificate.PrivateKey,
        intermediateKey: Certificate.PrivateKey,
        leafPublicKey: Certificate.PublicKey,
        serialNumbers: [Certificate.SerialNumber],
        validity: [ClosedRange<Date>]
    ) throws -> (root: Certificate, intermediate: Certificate, leaf: Certificate) {
        guard serialNumbers.count == 3, validity.count == 3 else {
            throw JWSVerificationError(.badCertificate, "a chain needs 3 serial numbers and 3 validity periods")
        }
        let rootName = try DistinguishedName {
            CountryName("US")
            OrganizationName(name)
            CommonName("\(name) Root CA")
        }
        let intermediateName = try DistinguishedName {
            CountryName("US")
            OrganizationName(name)
            CommonName("\(name) Intermediate CA")
        }
        let leafName = try DistinguishedName {
            CountryName("US")
            OrganizationName(name)
            CommonName("\(name) Signing")
        }
        let rootKeyID = SubjectKeyIdentifier(hash: rootKey.publicKey)
        let intermediateKeyID = SubjectKeyIdentifier(hash: intermediateKey.publicKey)
        let root = try Certificate(
            version: .v3,
            serialNumber: serialNumbers[0],
            publicKey: rootKey.publicKey,
            notValidBefore: validity[0].lowerBound,
            notValidAfter: validity[0].upperBound,
            issuer: rootName,
            subject: rootName,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                rootKeyID
            },
            issuerPrivateKey: rootKey
        )
        let intermediate = try Certificate(
            version: .v3,
            serialNumber: serialNumbers[1],
            publicKey: intermediateKey.publicKey,
            notValidBefore: validity[1].lowerBound,
            notValidAfter: validity[1].upperBound,
            issuer: rootName,
            subject: intermediateName,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                intermediateKeyID
                AuthorityKeyIdentifier(keyIdentifier: rootKeyID.keyIdentifier)
                Certificate.Extension(oid: AppleChainPolicy.intermediateMarker, critical: false, value: asn1Null)
            },
            issuerPrivateKey: rootKey
        )
        let leaf = try Certificate(
            version: .v3,
            serialNumber: serialNumbers[2],
            publicKey: leafPublicKey,
            notValidBefore: validity[2].lowerBound,
            notValidAfter: validity[2].upperBound,
            issuer: intermediateName,
            subject: leafName,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                AuthorityKeyIdentifier(keyIdentifier: intermediateKeyID.keyIdentifier)
                Certificate.Extension(oid: AppleChainPolicy.leafMarker, critical: false, value: asn1Null)
            },
            issuerPrivateKey: intermediateKey
        )
        return (root, intermediate, leaf)
    }

    /// The root certificate as DER, for a trust-root file.
    package func rootDER() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(root)
        return serializer.serializedBytes
    }

    /// The root certificate as PEM text, for a trust-root file.
    package func rootPEM() throws -> String {
        try root.serializeAsPEM().pemString
    }

    /// A signer that puts this PKI's leaf, intermediate and root in `x5c` and signs with the leaf's key.
    package func signer() throws -> JWSSigner {
        try JWSSigner(privateKey: leafKey, chain: [leaf, intermediate, root])
    }

    /// Apple's marker extensions hold an ASN.1 NULL.
    private static let asn1Null: ArraySlice<UInt8> = [0x05, 0x00]
}
