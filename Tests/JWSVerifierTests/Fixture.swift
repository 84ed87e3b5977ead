import AppStoreNotifications
import Crypto
import Foundation
import TestPKI
import Testing
import X509

/// Files under `Fixtures/` (see `Fixtures/README.md`), and small builders for tokens the fixtures do not hold.
enum Fixture {
    /// The bytes of `Fixtures/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        let directory = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures")
        return Array(try Data(contentsOf: directory.appendingPathComponent(path)))
    }

    /// The text of `Fixtures/<path>`, surrounding white space removed.
    static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A certificate from a PEM or DER fixture.
    static func certificate(_ path: String) throws -> Certificate {
        let certificates = try JWSVerifier.trustRoots(parsing: try bytes(path), from: path)
        return try #require(certificates.first)
    }

    /// A DER certificate fixture as an `x5c` entry (standard base64).
    static func x5cEntry(_ path: String) throws -> String {
        Data(try bytes(path)).base64EncodedString()
    }

    /// The compact JWS in `Fixtures/<path>`, parsed.
    static func jws(_ path: String) throws -> JWS {
        try JWS.parse(try text(path))
    }

    /// Apple's test root, `apple-test-pki/testCA.der`, in a verifier that trusts nothing else.
    static func appleTestVerifier() throws -> JWSVerifier {
        let roots = try JWSVerifier.trustRoots(parsing: bytes("apple-test-pki/testCA.der"), from: "testCA.der")
        return JWSVerifier(trustRoots: roots)
    }

    /// Signs with Apple's test leaf key (`testLeaf.key`), putting the given PEM fixtures in `x5c`.
    static func appleTestSigner(
        leaf: String = "apple-test-pki/testLeaf.pem",
        intermediate: String = "apple-test-pki/testIntermediate.pem",
        root: String = "apple-test-pki/testCA.pem"
    ) throws -> JWSSigner {
        try JWSSigner(
            privateKeyPEM: text("apple-test-pki/testLeaf.key"),
            chainPEM: [text(leaf), text(intermediate), text(root)]
        )
    }

    /// A payload with just `signedDate`, in milliseconds as Apple writes it.
    static func payload(signedAt date: Date) -> Data {
        Data(#"{"signedDate":\#(Int64(date.timeIntervalSince1970 * 1000))}"#.utf8)
    }

    /// A compact JWS with any header, signed over `base64url(header).base64url(payload)` with `key`.
    static func token(header: JWSHeader, payload: Data, key: P256.Signing.PrivateKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The `signedDate` in a token's payload (Apple's milliseconds since 1970).
    static func signedDate(of jws: JWS) throws -> Date {
        let payload = try JSONDecoder().decode(SignedDate.self, from: jws.payload)
        return Date(timeIntervalSince1970: try #require(payload.signedDate) / 1000)
    }

    /// The nested `signedTransactionInfo` and `signedRenewalInfo` of a notification.
    static func nestedTokens(of jws: JWS) throws -> [String] {
        let payload = try JSONDecoder().decode(Notification.self, from: jws.payload)
        return [payload.data?.signedTransactionInfo, payload.data?.signedRenewalInfo].compactMap { $0 }
    }

    /// Midnight UTC of a day.
    static func date(_ year: Int, _ month: Int, _ day: Int) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        return try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
    }

    private struct SignedDate: Decodable {
        var signedDate: Double?
    }

    private struct Notification: Decodable {
        struct NotificationData: Decodable {
            var signedTransactionInfo: String?
            var signedRenewalInfo: String?
        }
        var data: NotificationData?
    }
}
