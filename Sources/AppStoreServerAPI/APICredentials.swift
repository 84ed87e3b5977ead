import Crypto
import Foundation

/// What signs requests to the App Store Server API: an In-App Purchase key from App Store Connect (the `.p8` file)
/// with its key id, the team's issuer id, and the app's bundle id.
///
/// Nothing here ever prints the key: ``description`` names the key id, issuer and bundle id only, and a mirror (as
/// `dump` and string interpolation of nested values use) shows no children.
package struct APICredentials: Sendable, CustomStringConvertible, CustomReflectable {
    /// The key's id in App Store Connect (10 characters, e.g. `2X9R4HXF34`): the token header's `kid`.
    package var keyID: String
    /// The issuer id of the team's keys (a UUID, on App Store Connect's Integrations page): the `iss` claim.
    package var issuerID: String
    /// The app's bundle id: the `bid` claim.
    package var bundleID: String
    /// The key that signs the tokens.
    package let privateKey: P256.Signing.PrivateKey

    package init(privateKey: P256.Signing.PrivateKey, keyID: String, issuerID: String, bundleID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// Reads the key from the text of a `.p8` file: a PKCS #8 PEM P-256 key (`-----BEGIN PRIVATE KEY-----`), or just
    /// its base64 body on one or more lines (as secret stores often keep it).
    /// - Throws: ``AppStoreServerAPIError/invalidKey(_:)``, whose reason never quotes the text.
    package init(privateKeyPEM text: String, keyID: String, issuerID: String, bundleID: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw AppStoreServerAPIError.invalidKey("the key is empty") }
        let pem: String
        if trimmed.hasPrefix("-----BEGIN") {
            pem = trimmed
        } else {
            let body = trimmed.filter { !$0.isWhitespace }
            guard body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }) else {
                throw AppStoreServerAPIError.invalidKey(
                    "the key is neither PEM (-----BEGIN PRIVATE KEY-----) nor the base64 body of one"
                )
            }
            var lines: [Substring] = []
            var rest = Substring(body)
            while !rest.isEmpty {
                lines.append(rest.prefix(64))
                rest = rest.dropFirst(64)
            }
            pem = "-----BEGIN PRIVATE KEY-----\n" + lines.joined(separator: "\n") + "\n-----END PRIVATE KEY-----"
        }
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw AppStoreServerAPIError.invalidKey(
                "the key is not a P-256 private key in PEM, as the .p8 file App Store Connect gives (\(Self.kind(of: error)))"
            )
        }
        self.init(privateKey: key, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }

    package var description: String {
        "key \(keyID), issuer \(issuerID), bundle \(bundleID)"
    }

    package var customMirror: Mirror {
        Mirror(self, children: [], displayStyle: .struct)
    }

    /// The type of a parsing error, not its text: the text of some errors could quote the input.
    private static func kind(of error: any Error) -> String {
        String(describing: type(of: error))
    }
}
