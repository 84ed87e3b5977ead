import AppStoreNotifications
import Crypto
import Foundation
import Testing
import X509

/// Apple's production chain: Apple Root CA - G3 → Apple WWDR CA G6 → the receipt-signing leaf of 2025-09-19 to
/// 2027-10-13. No token signed by that leaf is at hand, so these tests run the chain step on the real certificates.
@Suite struct AppleRootChainTests {
    private let x5c: [String]
    private let leaf: Certificate

    init() throws {
        x5c = [
            try Fixture.x5cEntry("apple-root-certs/receipt-signing-leaf-2025.der"),
            try Fixture.x5cEntry("apple-root-certs/AppleWWDRCA-G6.der"),
            try Fixture.x5cEntry("apple-root-certs/AppleRootCA-G3.der"),
        ]
        leaf = try Fixture.certificate("apple-root-certs/receipt-signing-leaf-2025.der")
    }

    @Test func bundledRootIsAppleRootCAG3() throws {
        let bundled = JWSVerifier.appleRootCAG3DER
        let digest = SHA256.hash(data: bundled).map { String(format: "%02x", $0) }.joined()

        #expect(digest == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(digest == JWSVerifier.appleRootCAG3SHA256)
        #expect(bundled == (try Fixture.bytes("apple-root-certs/AppleRootCA-G3.der")))
        #expect(try JWSVerifier().trustRoots == [try JWSVerifier.appleRootCAG3()])
        #expect("\(try JWSVerifier.appleRootCAG3().subject)".contains("CN=Apple Root CA - G3"))
    }

    @Test func realChainValidatesWithTheDefaultRootWhileTheLeafIsValid() throws {
        let verifier = try JWSVerifier()

        let key = try verifier.validateChain(x5c: x5c, at: try Fixture.date(2026, 6, 1))

        let leafKey = try #require(P256.Signing.PublicKey(leaf.publicKey))
        #expect(key.rawRepresentation == leafKey.rawRepresentation)
    }

    @Test(arguments: [(2027, 11, 1), (2025, 9, 1)])
    func realChainIsRefusedOutsideTheLeafsValidity(year: Int, month: Int, day: Int) throws {
        let verifier = try JWSVerifier()

        let error = try #require(throws: JWSVerificationError.self) {
            try verifier.validateChain(x5c: x5c, at: try Fixture.date(year, month, day))
        }
        #expect(error.reason == .certificateNotValidAtSignedDate)
        #expect(error.detail.contains("the leaf certificate"))
    }

    @Test func realChainNeedsTheRealRoot() throws {
        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().validateChain(x5c: x5c, at: try Fixture.date(2026, 6, 1))
        }
        #expect(error.reason == .untrustedChain)
    }

    @Test func realChainGoesThroughToTheSignatureCheck() throws {
        // A token with Apple's real chain and a signature nobody could have made: every check before the
        // signature passes with the default root, and the leaf's key then refuses the signature.
        let signedDate = try Fixture.date(2026, 6, 1)
        let token = try Fixture.token(
            header: JWSHeader(alg: "ES256", x5c: x5c),
            payload: Fixture.payload(signedAt: signedDate),
            key: P256.Signing.PrivateKey()
        )
        let verifier = try JWSVerifier()

        let error = try #require(throws: JWSVerificationError.self) {
            try verifier.verify(try JWS.parse(token), at: signedDate)
        }
        #expect(error.reason == .badSignature)
        #expect(verifier.chainValidationCount == 1)
    }
}
