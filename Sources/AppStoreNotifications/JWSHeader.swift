/// The protected header of a JWS as Apple writes it: `{"alg":"ES256","x5c":[leaf, intermediate, root]}`.
package struct JWSHeader: Codable, Hashable, Sendable {
    /// The signature algorithm; Apple uses `ES256`.
    package var alg: String?
    /// The certificate chain, each entry standard base64 (not base64url) DER, leaf first.
    package var x5c: [String]?
    /// `JWT` in Apple's test mocks and Xcode tokens; absent in real tokens.
    package var typ: String?
    /// Key identifier, set by StoreKit Testing in Xcode.
    package var kid: String?

    package init(alg: String? = nil, x5c: [String]? = nil, typ: String? = nil, kid: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.typ = typ
        self.kid = kid
    }
}
