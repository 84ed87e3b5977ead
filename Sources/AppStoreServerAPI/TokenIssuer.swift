import AppStoreNotifications
import Crypto
import Foundation

/// Signs App Store Server API tokens as Apple specifies, and renews them before they expire.
///
/// A token is an ES256 JWT: header `{"alg":"ES256","kid":<key id>,"typ":"JWT"}`, claims `iss` (issuer id), `iat`
/// and `exp` (Unix seconds, at most an hour apart), `aud` `appstoreconnect-v1` and `bid` (bundle id); the signature
/// is the raw 64-byte `r‖s`, all three parts base64url without padding
/// ([Generating JSON Web Tokens for API requests](https://developer.apple.com/documentation/appstoreserverapi/generating-json-web-tokens-for-api-requests)).
package struct TokenIssuer: Sendable {
    /// The longest validity Apple accepts.
    package static let maximumLifetime: TimeInterval = 3600

    /// The `aud` claim of every App Store Server API token.
    package static let audience = "appstoreconnect-v1"

    package let credentials: APICredentials
    /// How long each token is valid: 20 minutes unless set, at most an hour.
    package let lifetime: TimeInterval
    /// A token is replaced once less than this remains of it, so no request carries one that expires on the way.
    package let renewalMargin: TimeInterval
    private var current: AuthenticationToken?

    /// - Parameters:
    ///   - lifetime: seconds from `iat` to `exp`, more than `renewalMargin` and at most ``maximumLifetime``.
    ///   - renewalMargin: seconds before `exp` at which a token is renewed.
    /// - Throws: ``AppStoreServerAPIError/invalidConfiguration(_:)`` for a lifetime Apple would refuse.
    package init(credentials: APICredentials, lifetime: TimeInterval = 1200, renewalMargin: TimeInterval = 120) throws {
        guard lifetime <= Self.maximumLifetime, lifetime > renewalMargin, renewalMargin >= 0 else {
            throw AppStoreServerAPIError.invalidConfiguration(
                "a token lifetime must be over the renewal margin (\(Int(renewalMargin)) s) and at most 3600 s, not \(lifetime) s"
            )
        }
        self.credentials = credentials
        self.lifetime = lifetime
        self.renewalMargin = renewalMargin
    }

    /// A token valid at `now` for at least the renewal margin: the current one, or a new one.
    /// - Throws: ``AppStoreServerAPIError/invalidKey(_:)`` when signing fails.
    package mutating func token(at now: Date) throws -> AuthenticationToken {
        if let current, current.expiresAt.timeIntervalSince(now) > renewalMargin, current.issuedAt <= now {
            return current
        }
        let token = try sign(at: now)
        current = token
        return token
    }

    /// A new token issued at `now` (whole seconds).
    /// - Throws: ``AppStoreServerAPIError/invalidKey(_:)`` when signing fails.
    package func sign(at now: Date) throws -> AuthenticationToken {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let expiresAt = issuedAt + lifetime.rounded(.down)
        let header = JWSHeader(alg: "ES256", typ: "JWT", kid: credentials.keyID)
        let claims = Claims(
            iss: credentials.issuerID, iat: Int64(issuedAt), exp: Int64(expiresAt), aud: Self.audience,
            bid: credentials.bundleID
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let signingInput =
                Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
            let signature = try credentials.privateKey.signature(for: Data(signingInput.utf8))
            return AuthenticationToken(
                compact: signingInput + "." + Base64URL.encode(signature.rawRepresentation),
                keyID: credentials.keyID,
                issuedAt: Date(timeIntervalSince1970: issuedAt),
                expiresAt: Date(timeIntervalSince1970: expiresAt)
            )
        } catch {
            throw AppStoreServerAPIError.invalidKey("signing a token failed (\(type(of: error)))")
        }
    }

    /// The JWT claims.
    package struct Claims: Codable, Sendable, Equatable {
        package var iss: String
        package var iat: Int64
        package var exp: Int64
        package var aud: String
        package var bid: String

        package init(iss: String, iat: Int64, exp: Int64, aud: String, bid: String) {
            self.iss = iss
            self.iat = iat
            self.exp = exp
            self.aud = aud
            self.bid = bid
        }
    }
}
