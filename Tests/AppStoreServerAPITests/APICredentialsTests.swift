import AppStoreServerAPI
import Crypto
import Foundation
import TestSupport
import Testing

@Suite struct APICredentialsTests {
    let key = APIKeyFixture()

    @Test func readsTheP8FileAppStoreConnectGives() throws {
        let credentials = try APICredentials(
            privateKeyPEM: key.pem, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID
        )
        #expect(credentials.privateKey.rawRepresentation == key.privateKey.rawRepresentation)
    }

    @Test func readsJustTheBase64BodyAsSecretStoresKeepIt() throws {
        for body in [key.pemBodyLines.joined(), key.pemBodyLines.joined(separator: "\n") + "\n"] {
            let credentials = try APICredentials(
                privateKeyPEM: body, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID
            )
            #expect(credentials.privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        }
    }

    @Test(arguments: [
        "", "not a key at all!", "QUJDRA==", "-----BEGIN PRIVATE KEY-----\nQUJDRA==\n-----END PRIVATE KEY-----",
    ])
    func refusesWhatIsNoP256KeyWithoutQuotingIt(_ text: String) throws {
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try APICredentials(privateKeyPEM: text, keyID: "K", issuerID: "I", bundleID: "B")
        }
        #expect(error.description.hasPrefix("the App Store Server API key cannot be used: "))
        if text.count > 4 {
            #expect(!error.description.contains(text))
            #expect(!error.description.contains("QUJDRA"))
        }
    }

    @Test func neitherDescriptionNorDumpShowsTheKey() throws {
        let credentials = try APICredentials(
            privateKeyPEM: key.pem, keyID: key.keyID, issuerID: key.issuerID, bundleID: key.bundleID
        )
        var dumped = ""
        dump(credentials, to: &dumped)
        let raw = key.privateKey.rawRepresentation
        for text in ["\(credentials)", String(reflecting: credentials), dumped, "\([credentials])"] {
            #expect(text.contains(key.keyID) || text.contains("APICredentials"))
            for line in key.pemBodyLines { #expect(!text.contains(line)) }
            #expect(!text.contains(raw.base64EncodedString()))
            #expect(!text.contains(raw.map { String(format: "%02x", $0) }.joined()))
        }
    }
}
