import Crypto

/// Why ``JWSVerifier`` refused a JWS.
///
/// ``reason`` is a stable code for machines (the quarantine reason in the database, `rejected_<code>` in reports);
/// ``detail`` names what was wrong for a person: which certificate, which date, which algorithm.
package struct JWSVerificationError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The kinds of refusal, in the order ``JWSVerifier`` checks them. Raw values are the snake_case codes.
    package enum Reason: String, CaseIterable, Sendable {
        /// The header's `alg` is missing or is not `ES256`.
        case badAlgorithm = "bad_algorithm"
        /// The header has no `x5c`, or fewer than two certificates (leaf and intermediate) in it.
        case missingX5C = "missing_x5c"
        /// An `x5c` entry (or a trust-root file) is not base64 of a DER X.509 certificate, or the leaf's key is not
        /// the P-256 key that ES256 needs.
        case badCertificate = "bad_certificate"
        /// The leaf lacks extension 1.2.840.113635.100.6.11.1 or the intermediate lacks 1.2.840.113635.100.6.2.1;
        /// ``JWSVerificationError/detail`` says which.
        case wrongOID = "wrong_oid"
        /// No path leads from the leaf through the intermediate to a configured trust root, or the path breaks
        /// RFC 5280 (signatures, CA flags, name constraints) or has the wrong length.
        case untrustedChain = "untrusted_chain"
        /// The payload's `signedDate` lies outside the validity period of a certificate in the chain.
        case certificateNotValidAtSignedDate = "certificate_not_valid_at_signed_date"
        /// The signature is not 64 bytes `r‖s`, or does not verify with the leaf's public key.
        case badSignature = "bad_signature"

        /// One sentence saying what this reason means.
        package var summary: String {
            switch self {
            case .badAlgorithm:
                return "the JWS is not signed with ES256"
            case .missingX5C:
                return "the JWS header carries no certificate chain"
            case .badCertificate:
                return "a certificate of the JWS cannot be read"
            case .wrongOID:
                return "a certificate lacks the marker extension of Apple's App Store signing chain"
            case .untrustedChain:
                return "the certificate chain does not lead to a trusted root"
            case .certificateNotValidAtSignedDate:
                return "a certificate of the chain was not valid when the payload was signed"
            case .badSignature:
                return "the JWS signature does not match its header and payload"
            }
        }
    }

    /// The stable code.
    package var reason: Reason
    /// What exactly was wrong, for a person.
    package var detail: String

    package init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    package var description: String {
        "JWS refused (\(reason.rawValue)): \(reason.summary); \(detail)"
    }

    /// What a refusal's detail says of an error from swift-crypto or swift-certificates: its own words, except for
    /// swift-crypto's `underlyingCoreCryptoError`, whose code is the one at the head of BoringSSL's error queue for the
    /// thread, which earlier failures leave behind; the same bytes must be refused in the same words.
    static func words(of error: any Error) -> String {
        if let crypto = error as? CryptoKitError, case .underlyingCoreCryptoError = crypto {
            return "swift-crypto cannot read a key or signature in it"
        }
        return "\(error)"
    }
}
