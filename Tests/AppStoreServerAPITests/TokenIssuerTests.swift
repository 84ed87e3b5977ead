import AppStoreNotifications
import AppStoreServerAPI
import Crypto
import Foundation
import TestSupport
import Testing

@Suite struct TokenIssuerTests {
    let key = APIKeyFixture()
    var credentials: APICredentials {
        APICredentials(privateKey: key.privateKey, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID)
    }

    @Test func signsTheHeaderClaimsAndSignatureAppleSpecifies() throws {
        let issuer = try TokenIssuer(credentials: credentials, lifetime: 1200)
        let now = Date(timeIntervalSince1970: 1_780_000_000.75)
        let token = try issuer.sign(at: now)
        let parts = token.compact.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(!token.compact.contains("="), "base64url without padding")
        let header = try JSONDecoder().decode(
            JWSHeader.self, from: try #require(Base64URL.decode(parts[0].utf8))
        )
        #expect(header == JWSHeader(alg: "ES256", typ: "JWT", kid: key.keyID))
        let claims = try JSONDecoder().decode(
            TokenIssuer.Claims.self, from: try #require(Base64URL.decode(parts[1].utf8))
        )
        #expect(
            claims
                == TokenIssuer.Claims(
                    iss: key.issuerID, iat: 1_780_000_000, exp: 1_780_001_200, aud: "appstoreconnect-v1",
                    bid: key.bundleID
                )
        )
        let signature = try #require(Base64URL.decode(parts[2].utf8))
        #expect(signature.count == 64, "raw r‖s, not DER")
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.privateKey.publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)))
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_780_000_000))
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_780_001_200))
    }

    @Test func keepsATokenUntilTheRenewalMarginThenSignsANewOne() throws {
        var issuer = try TokenIssuer(credentials: credentials, lifetime: 600, renewalMargin: 60)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let first = try issuer.token(at: start)
        #expect(try issuer.token(at: start.addingTimeInterval(539)).compact == first.compact)
        let renewed = try issuer.token(at: start.addingTimeInterval(541))
        #expect(renewed.compact != first.compact)
        #expect(renewed.issuedAt == start.addingTimeInterval(541))
        #expect(renewed.expiresAt == start.addingTimeInterval(1141))
    }

    @Test(arguments: [3601.0, 60.0, 30.0])
    func refusesALifetimeAppleWouldRefuseOrTooShortToRenew(_ lifetime: Double) throws {
        #expect(throws: AppStoreServerAPIError.self) {
            try TokenIssuer(credentials: credentials, lifetime: lifetime, renewalMargin: 60)
        }
    }

    @Test func aTokensDescriptionNamesTheKeyButNotTheToken() throws {
        let token = try TokenIssuer(credentials: credentials).sign(at: Date())
        var dumped = ""
        dump(token, to: &dumped)
        for text in ["\(token)", String(describing: token), String(reflecting: token), dumped] {
            #expect(text.contains(key.keyID))
            #expect(!text.contains(token.compact))
            #expect(!text.contains(String(token.compact.split(separator: ".")[2])))
        }
    }
}
