import AppStoreNotifications
import Crypto
import Foundation
import TestPKI
import Testing
import X509

@Suite struct JWSSignerTests {
    @Test func tokenHasApplesShape() throws {
        let authority = try TestCertificateAuthority()
        let payload = Data(#"{"notificationType":"TEST","signedDate":1700000000000}"#.utf8)

        let token = try authority.signer().sign(payload)

        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0].utf8))
        let x5c = try authority.signer().x5c
        let quotedX5C = x5c.map { "\"\($0)\"" }.joined(separator: ",")
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","x5c":[\#(quotedX5C)]}"#)
        #expect(x5c.count == 3)
        let jws = try JWS.parse(token)
        #expect(jws.payload == payload)
        #expect(jws.signature.count == 64)
        let certificates = try x5c.flatMap { entry in
            try JWSVerifier.trustRoots(parsing: Array(try #require(Data(base64Encoded: entry))), from: "x5c")
        }
        #expect(certificates == [authority.leaf, authority.intermediate, authority.root])
    }

    @Test func tokenVerifiesAgainstTheAuthoritysExportedRoot() throws {
        let authority = try TestCertificateAuthority()
        let signedDate = try Fixture.date(2030, 1, 1)
        let roots = try JWSVerifier.trustRoots(parsing: Array(authority.rootPEM().utf8), from: "root.pem")

        let jws = try JWS.parse(try authority.signer().sign(Fixture.payload(signedAt: signedDate)))

        try JWSVerifier(trustRoots: roots).verify(jws, at: signedDate)
    }

    @Test func authorityCertificatesCarryApplesMarkersAndConstraints() throws {
        let authority = try TestCertificateAuthority()

        let leafOIDs = authority.leaf.extensions.map { "\($0.oid)" }
        let intermediateOIDs = authority.intermediate.extensions.map { "\($0.oid)" }
        #expect(leafOIDs.contains("1.2.840.113635.100.6.11.1"))
        #expect(intermediateOIDs.contains("1.2.840.113635.100.6.2.1"))
        #expect(try authority.intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try authority.root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(try authority.leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(authority.leaf.issuer == authority.intermediate.subject)
        #expect(authority.intermediate.issuer == authority.root.subject)
    }

    @Test func appleTestKeyLoadsAsSEC1AndAsPKCS8() throws {
        let sec1 = try Fixture.text("apple-test-pki/testLeaf.key")
        #expect(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        let pkcs8 = try P256.Signing.PrivateKey(pemRepresentation: sec1).pemRepresentation
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let chain = try ["testLeaf.pem", "testIntermediate.pem", "testCA.pem"].map {
            try Fixture.text("apple-test-pki/\($0)")
        }
        let leafCertificate = try Fixture.certificate("apple-test-pki/testLeaf.pem")
        let leafKey = try #require(P256.Signing.PublicKey(leafCertificate.publicKey))

        for pem in [sec1, pkcs8] {
            let signer = try JWSSigner(privateKeyPEM: pem, chainPEM: chain)
            #expect(signer.privateKey.publicKey.rawRepresentation == leafKey.rawRepresentation)
            let signedDate = try Fixture.date(2024, 3, 1)
            let jws = try JWS.parse(try signer.sign(Fixture.payload(signedAt: signedDate)))
            try Fixture.appleTestVerifier().verify(jws, at: signedDate)
        }
    }
}
