import AppStoreNotifications
import Crypto
import Foundation
import TestPKI
import Testing

@Suite struct JWSVerifierTests {
    @Test(arguments: ["testNotification", "transactionInfo", "renewalInfo"])
    func appleMockSignedDataVerifiesAgainstAppleTestCA(name: String) throws {
        let jws = try Fixture.jws("apple-mock-signed/\(name)")
        let verifier = try Fixture.appleTestVerifier()

        try verifier.verify(jws, at: try Fixture.signedDate(of: jws))
    }

    @Test(arguments: [
        "01_DID_FAIL_TO_RENEW_GRACE_PERIOD", "02_GRACE_PERIOD_EXPIRED", "03_DID_RENEW_BILLING_RECOVERY",
        "04_DID_FAIL_TO_RENEW", "05_EXPIRED_BILLING_RETRY",
    ])
    func billingLifecycleVerifiesWithItsNestedTokens(name: String) throws {
        let notification = try Fixture.jws("billing-lifecycle/\(name).jws")
        let verifier = try Fixture.appleTestVerifier()

        try verifier.verify(notification, at: try Fixture.signedDate(of: notification))
        let nested = try Fixture.nestedTokens(of: notification)
        #expect(nested.count == 2)
        for token in nested {
            let jws = try JWS.parse(token)
            try verifier.verify(jws, at: try Fixture.signedDate(of: jws))
        }
        #expect(verifier.chainValidationCount == 1)
    }

    @Test func headerWithoutX5CIsRefused() throws {
        let jws = try Fixture.jws("apple-mock-signed/missingX5CHeaderClaim")
        let verifier = try Fixture.appleTestVerifier()

        let error = try #require(throws: JWSVerificationError.self) {
            try verifier.verify(jws, at: try Fixture.date(2023, 6, 1))
        }
        #expect(error.reason == .missingX5C)
    }

    @Test func x5cWithTheLeafAloneIsRefused() throws {
        let signer = try Fixture.appleTestSigner()
        let token = try Fixture.token(
            header: JWSHeader(alg: "ES256", x5c: [signer.x5c[0]]),
            payload: Fixture.payload(signedAt: try Fixture.date(2024, 1, 1)),
            key: signer.privateKey
        )

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(try JWS.parse(token), at: try Fixture.date(2024, 1, 1))
        }
        #expect(error.reason == .missingX5C)
    }

    @Test(arguments: [
        ("apple-test-pki/testInvalidOIDLeaf.pem", "apple-test-pki/testIntermediate.pem", "leaf"),
        ("apple-test-pki/testLeaf.pem", "apple-test-pki/testInvalidOIDIntermediate.pem", "intermediate"),
    ])
    func certificateWithoutApplesMarkerIsRefused(leaf: String, intermediate: String, culprit: String) throws {
        // Both wrong-OID certificates share their key and subject with the good ones, so testLeaf.key signs a token
        // whose chain is complete and correctly signed: only the marker extension is wrong.
        let signer = try Fixture.appleTestSigner(leaf: leaf, intermediate: intermediate)
        let signedDate = try Fixture.date(2024, 1, 1)
        let jws = try JWS.parse(try signer.sign(Fixture.payload(signedAt: signedDate)))

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(jws, at: signedDate)
        }
        #expect(error.reason == .wrongOID)
        #expect(error.detail.hasPrefix("the \(culprit) certificate"))
    }

    @Test func tamperedPayloadIsRefused() throws {
        let original = try Fixture.text("billing-lifecycle/01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws")
        let parts = original.split(separator: ".").map(String.init)
        var payload = try #require(Base64URL.decode(parts[1].utf8))
        let index = try #require(payload.firstRange(of: Data(#""status":4"#.utf8))).upperBound - 1
        payload[index] = UInt8(ascii: "3")
        let tampered = try JWS.parse([parts[0], Base64URL.encode(payload), parts[2]].joined(separator: "."))

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(tampered, at: try Fixture.signedDate(of: tampered))
        }
        #expect(error.reason == .badSignature)
    }

    /// The digest the signature is checked against is SHA-256 of the signing input, whether the header's hashing
    /// is computed for this token or comes from an earlier token's (its whole 64-byte blocks), for headers around
    /// the block sizes.
    @Test func signingInputDigestIsTheSHA256OfTheSigningInput() throws {
        let signer = try Fixture.appleTestSigner()
        let payload = Fixture.payload(signedAt: try Fixture.date(2024, 1, 1))
        var lengths = Set<Int>()
        for kidLength in 0..<100 {
            let header = JWSHeader(alg: "ES256", kid: String(repeating: "k", count: kidLength))
            let token = try Fixture.token(header: header, payload: payload, key: signer.privateKey)
            lengths.insert(token.prefix { $0 != "." }.utf8.count)
            for _ in 0..<2 {
                let jws = try JWS.parse(token)
                #expect(jws.signingInputDigest() == SHA256.hash(data: Array(jws.signingInput)), "kid \(kidLength)")
            }
        }
        #expect(lengths.isSuperset(of: [63, 64, 66, 127, 128, 130]), "\(lengths.sorted())")
        let notification = try Fixture.jws("billing-lifecycle/01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws")
        #expect(notification.signingInputDigest() == SHA256.hash(data: Array(notification.signingInput)))
    }

    @Test func tamperedSignatureIsRefused() throws {
        var jws = try Fixture.jws("billing-lifecycle/02_GRACE_PERIOD_EXPIRED.jws")
        jws.signature[40] ^= 0x01

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(jws, at: try Fixture.signedDate(of: jws))
        }
        #expect(error.reason == .badSignature)
    }

    @Test(arguments: [0, 63, 65, 72])
    func signatureOfTheWrongLengthIsRefused(length: Int) throws {
        var jws = try Fixture.jws("billing-lifecycle/03_DID_RENEW_BILLING_RECOVERY.jws")
        jws.signature = Data(repeating: 0x01, count: length)

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(jws, at: try Fixture.signedDate(of: jws))
        }
        #expect(error.reason == .badSignature)
    }

    @Test func signatureByAKeyOtherThanTheLeafsIsRefused() throws {
        let chain = try Fixture.appleTestSigner().x5c
        let signer = try JWSSigner(privateKey: P256.Signing.PrivateKey(), x5c: chain)
        let signedDate = try Fixture.date(2024, 1, 1)
        let jws = try JWS.parse(try signer.sign(Fixture.payload(signedAt: signedDate)))

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(jws, at: signedDate)
        }
        #expect(error.reason == .badSignature)
    }

    @Test func tokenFromAnotherCertificateAuthorityIsRefused() throws {
        // The other PKI is well formed and carries Apple's markers; its root even rides along in x5c[2].
        let other = try TestCertificateAuthority(name: "Impostor")
        let signedDate = try Fixture.date(2024, 1, 1)
        let jws = try JWS.parse(try other.signer().sign(Fixture.payload(signedAt: signedDate)))

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(jws, at: signedDate)
        }
        #expect(error.reason == .untrustedChain)
        // The same token passes once its own root is trusted.
        try JWSVerifier(trustRoots: [other.root]).verify(jws, at: signedDate)
    }

    @Test func leafExpiredAtSignedDateIsRefusedEvenWhenItsChainIsCached() throws {
        let authority = try TestCertificateAuthority(
            leafValidity: try Fixture.date(2024, 1, 1)...Fixture.date(2024, 12, 31)
        )
        let signer = try authority.signer()
        let verifier = JWSVerifier(trustRoots: [authority.root])
        let inside = try Fixture.date(2024, 6, 1)
        let after = try Fixture.date(2025, 2, 1)
        let before = try Fixture.date(2023, 6, 1)

        try verifier.verify(try JWS.parse(try signer.sign(Fixture.payload(signedAt: inside))), at: inside)
        for signedDate in [after, before] {
            let jws = try JWS.parse(try signer.sign(Fixture.payload(signedAt: signedDate)))
            let error = try #require(throws: JWSVerificationError.self) {
                try verifier.verify(jws, at: signedDate)
            }
            #expect(error.reason == .certificateNotValidAtSignedDate)
            #expect(error.detail.contains("the leaf certificate"))
        }
        #expect(verifier.chainValidationCount == 1)
    }

    @Test func intermediateExpiredAtSignedDateIsRefused() throws {
        let authority = try TestCertificateAuthority(
            intermediateValidity: try Fixture.date(2021, 1, 1)...Fixture.date(2022, 1, 1)
        )
        let signedDate = try Fixture.date(2024, 1, 1)
        let jws = try JWS.parse(try authority.signer().sign(Fixture.payload(signedAt: signedDate)))

        let error = try #require(throws: JWSVerificationError.self) {
            try JWSVerifier(trustRoots: [authority.root]).verify(jws, at: signedDate)
        }
        #expect(error.reason == .certificateNotValidAtSignedDate)
        #expect(error.detail.contains("the intermediate certificate"))
    }

    @Test(arguments: ["ES384", "RS256", "HS256", "none", "es256", nil] as [String?])
    func algorithmOtherThanES256IsRefused(alg: String?) throws {
        let signer = try Fixture.appleTestSigner()
        let signedDate = try Fixture.date(2024, 1, 1)
        let token = try Fixture.token(
            header: JWSHeader(alg: alg, x5c: signer.x5c),
            payload: Fixture.payload(signedAt: signedDate),
            key: signer.privateKey
        )

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(try JWS.parse(token), at: signedDate)
        }
        #expect(error.reason == .badAlgorithm)
    }

    @Test(arguments: [
        (0, "not base64 at all!"),
        (0, "AAAA"),
        (1, "MIIB"),
    ])
    func x5cEntryThatIsNotACertificateIsRefused(index: Int, entry: String) throws {
        let signer = try Fixture.appleTestSigner()
        var x5c = signer.x5c
        x5c[index] = entry
        let signedDate = try Fixture.date(2024, 1, 1)
        let token = try Fixture.token(
            header: JWSHeader(alg: "ES256", x5c: x5c),
            payload: Fixture.payload(signedAt: signedDate),
            key: signer.privateKey
        )

        let error = try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(try JWS.parse(token), at: signedDate)
        }
        #expect(error.reason == .badCertificate)
        #expect(error.detail.hasPrefix("x5c[\(index)]"))
    }

    @Test func x5cRootIsNeverTrustedByItself() throws {
        // testNotification's x5c[2] differs from testCA.der; what it says does not matter, only the configured roots.
        let jws = try Fixture.jws("apple-mock-signed/testNotification")
        let verifier = JWSVerifier(trustRoots: [])

        let error = try #require(throws: JWSVerificationError.self) {
            try verifier.verify(jws, at: try Fixture.signedDate(of: jws))
        }
        #expect(error.reason == .untrustedChain)
    }

    @Test func errorDescriptionNamesTheCodeAndTheDetail() {
        let error = JWSVerificationError(.wrongOID, "the leaf certificate (O=Leaf) lacks extension 1.2.3")

        #expect(
            error.description
                == "JWS refused (wrong_oid): a certificate lacks the marker extension of Apple's App Store signing "
                + "chain; the leaf certificate (O=Leaf) lacks extension 1.2.3"
        )
    }

    @Test func reasonCodesAreSnakeCase() {
        #expect(
            JWSVerificationError.Reason.allCases.map(\.rawValue) == [
                "bad_algorithm", "missing_x5c", "bad_certificate", "wrong_oid", "untrusted_chain",
                "certificate_not_valid_at_signed_date", "bad_signature",
            ]
        )
    }
}

/// A refusal's words depend on the token alone, not on what the verifier met before (`FuzzChain`'s finding,
/// docs/RELIABILITY.md): swift-crypto's `underlyingCoreCryptoError` carries the code at the head of BoringSSL's error
/// queue, which earlier failures on the same thread leave behind.
@Suite struct RefusalWordsTests {
    /// Apple's test leaf with one byte of its public key's X coordinate changed: still DER, but no point of P-256.
    static func leafOffTheCurve(flipping offset: Int) throws -> String {
        var der = [UInt8](try #require(Data(base64Encoded: try Fixture.appleTestSigner().x5c[0])))
        // The subjectPublicKey BIT STRING: 03 42 00, then the uncompressed point 04 ‖ X ‖ Y.
        let marker: [UInt8] = [0x03, 0x42, 0x00, 0x04]
        let start = try #require(
            (0...(der.count - marker.count)).first { Array(der[$0..<($0 + marker.count)]) == marker })
        der[start + marker.count + offset] ^= 0x5A
        return Data(der).base64EncodedString()
    }

    static func refusal(leaf: String) throws -> JWSVerificationError {
        let signer = try Fixture.appleTestSigner()
        let date = try Fixture.date(2024, 1, 1)
        let token = try Fixture.token(
            header: JWSHeader(alg: "ES256", x5c: [leaf, signer.x5c[1]]), payload: Fixture.payload(signedAt: date),
            key: signer.privateKey)
        // A new verifier each time, so that nothing comes from a verifier's cache.
        return try #require(throws: JWSVerificationError.self) {
            try Fixture.appleTestVerifier().verify(try JWS.parse(token), at: date)
        }
    }

    @Test func aLeafWhoseKeyDoesNotReadIsRefusedInTheSameWordsWhateverCameBefore() throws {
        let leaf = try Self.leafOffTheCurve(flipping: 7)
        let first = try Self.refusal(leaf: leaf)
        #expect(first.reason == .badCertificate)
        // Other refusals of the same kind in between, each leaving BoringSSL's queue otherwise.
        for offset in [1, 20, 40] { _ = try Self.refusal(leaf: try Self.leafOffTheCurve(flipping: offset)) }
        let again = try Self.refusal(leaf: leaf)
        #expect(again == first)
        #expect(!first.description.contains("underlyingCoreCryptoError"), "\(first)")
    }
}
