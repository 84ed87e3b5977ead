import Foundation

/// A signed App Store Server API token (an ES256 JWT) and its validity.
///
/// Its ``description`` names the key and the times, never the token: a token is a credential for its whole life.
package struct AuthenticationToken: Sendable, CustomStringConvertible, CustomReflectable {
    /// The compact JWT, for the `Authorization: Bearer` header only.
    package let compact: String
    /// The key id in its header.
    package let keyID: String
    /// `iat`.
    package let issuedAt: Date
    /// `exp`.
    package let expiresAt: Date

    package init(compact: String, keyID: String, issuedAt: Date, expiresAt: Date) {
        self.compact = compact
        self.keyID = keyID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    package var description: String {
        "token of key \(keyID), issued \(Int64(issuedAt.timeIntervalSince1970)), expires \(Int64(expiresAt.timeIntervalSince1970))"
    }

    package var customMirror: Mirror {
        Mirror(self, children: ["keyID": keyID, "issuedAt": issuedAt, "expiresAt": expiresAt], displayStyle: .struct)
    }
}
