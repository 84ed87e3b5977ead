import Analysis
import AppStoreNotifications
import Crypto
import Foundation
import Simulator
import TestPKI
import Testing
import X509

@Suite struct DeterministicSigningTests {
    /// RFC 6979 A.2.5: P-256 with SHA-256.
    static let rfcKey = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"

    @Test(arguments: [
        (
            "sample",
            "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
                + "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
        ),
        (
            "test",
            "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367"
                + "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"
        ),
    ])
    func matchesRFC6979Vectors(message: String, expected: String) throws {
        let key = try DeterministicSigningKey(P256.Signing.PrivateKey(rawRepresentation: hexBytes(Self.rfcKey)))
        let signature = try key.rawSignature(for: Array(message.utf8))
        #expect(hex(signature) == expected)
    }

    /// The signing key's HMAC-SHA256 is Swift Crypto's, for 32-byte keys and messages of every length up to
    /// three blocks.
    @Test func macIsHMACSHA256() {
        var generator = SplitMix64(seed: 6979)
        for length in 0...200 {
            let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
            #expect(DeterministicSigningKey.mac(message, key) == expected, "\(length) bytes")
        }
    }

    @Test func signaturesVerifyAndRepeat() throws {
        var generator = SplitMix64(seed: 42)
        for round in 0..<200 {
            let key = try DeterministicSigningKey(drawingFrom: &generator)
            let message = Array("message \(round) \(generator.next())".utf8)
            let first = try key.rawSignature(for: message)
            let second = try key.rawSignature(for: message)
            #expect(first == second)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: first)
            #expect(key.privateKey.publicKey.isValidSignature(signature, for: message))
        }
    }

    @Test func seededAuthorityIsDeterministicAndVerifies() throws {
        let validity = Date(timeIntervalSince1970: 1_600_000_000)...Date(timeIntervalSince1970: 2_000_000_000)
        let first = try SeededCertificateAuthority(seed: 7, validity: validity)
        let second = try SeededCertificateAuthority(seed: 7, validity: validity)
        let other = try SeededCertificateAuthority(seed: 8, validity: validity)
        #expect(try first.rootDER() == second.rootDER())
        #expect(try first.rootDER() != other.rootDER())

        let payload = Data(#"{"signedDate":1700000000000}"#.utf8)
        let token = try first.signer().sign(payload)
        #expect(try second.signer().sign(payload) == token)
        let verifier = JWSVerifier(trustRoots: [first.root])
        try verifier.verify(JWS.parse(token), at: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(throws: JWSVerificationError.self) {
            try JWSVerifier(trustRoots: [other.root]).verify(
                JWS.parse(token), at: Date(timeIntervalSince1970: 1_700_000_000))
        }
    }

    @Test func signsForTestCertificateAuthority() throws {
        let authority = try TestCertificateAuthority()
        let signer = try DeterministicJWSSigner(authority: authority)
        let token = try signer.sign(Data("{}".utf8))
        try JWSVerifier(trustRoots: [authority.root]).verify(
            JWS.parse(token), at: Date(timeIntervalSince1970: 1_700_000_000))
    }
}

func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02X", $0) }.joined()
}
