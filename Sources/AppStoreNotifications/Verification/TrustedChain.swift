import Crypto
import Foundation
import X509

/// A certificate path that passed path validation: what ``JWSVerifier`` keeps per distinct `x5c` chain.
///
/// Path validation proves everything about a chain except its validity periods, which depend on the instant each
/// payload was signed. So the validated path is kept whole, and ``check(signedDate:)`` judges every payload's
/// `signedDate` against the validity of every certificate on it. Together the two are RFC 5280 path validation at
/// `signedDate`, with the costly part (P-384 signatures of Apple's root and intermediate) done once.
struct TrustedChain: Sendable {
    /// The leaf's key: the one that must have signed the JWS.
    let publicKey: P256.Signing.PublicKey
    /// The validated path: leaf, intermediate, trust root.
    let path: [Certificate]
    /// The latest `notValidBefore` on the path.
    let notValidBefore: Date
    /// The earliest `notValidAfter` on the path.
    let notValidAfter: Date

    init(publicKey: P256.Signing.PublicKey, path: [Certificate]) {
        self.publicKey = publicKey
        self.path = path
        self.notValidBefore = path.map(\.notValidBefore).max() ?? .distantFuture
        self.notValidAfter = path.map(\.notValidAfter).min() ?? .distantPast
    }

    /// Checks that every certificate on the path was valid at `signedDate` (bounds included, as RFC 5280 has them).
    /// - Throws: ``JWSVerificationError/Reason/certificateNotValidAtSignedDate`` naming the first certificate that
    ///   was not.
    func check(signedDate: Date) throws(JWSVerificationError) {
        if signedDate >= notValidBefore, signedDate <= notValidAfter { return }
        let roles = ["leaf", "intermediate", "root"]
        for (index, certificate) in path.enumerated() {
            let role = index < roles.count ? roles[index] : "certificate \(index)"
            if signedDate < certificate.notValidBefore {
                throw JWSVerificationError(
                    .certificateNotValidAtSignedDate,
                    "signedDate \(Self.format(signedDate)) is before the \(role) certificate (\(certificate.subject)) "
                        + "became valid at \(Self.format(certificate.notValidBefore))"
                )
            }
            if signedDate > certificate.notValidAfter {
                throw JWSVerificationError(
                    .certificateNotValidAtSignedDate,
                    "signedDate \(Self.format(signedDate)) is after the \(role) certificate (\(certificate.subject)) "
                        + "expired at \(Self.format(certificate.notValidAfter))"
                )
            }
        }
        throw JWSVerificationError(
            .certificateNotValidAtSignedDate,
            "signedDate \(Self.format(signedDate)) is outside the chain's validity"
        )
    }

    private static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
