import SwiftASN1
import X509

/// Apple's rules for an App Store signing chain that RFC 5280 does not cover, as a swift-certificates policy.
///
/// A path must be exactly leaf → intermediate → trust root; the leaf must carry Apple's receipt-signing marker and the
/// intermediate Apple's WWDR marker. Only presence counts: Apple's libraries do not read the values either.
///
/// `package` for its two markers, which a test PKI must put on its certificates.
package struct AppleChainPolicy: VerifierPolicy, Sendable {
    /// 1.2.840.113635.100.6.11.1, Apple's Mac App Store and iTunes Store receipt-signing marker, on the leaf.
    package static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// 1.2.840.113635.100.6.2.1, Apple's WWDR intermediate marker.
    package static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    /// Apple marks neither extension critical; if a certificate did, presence is all this policy enforces.
    package let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [Self.leafMarker, Self.intermediateMarker]

    package func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(
                reason:
                    "AppleChainPolicy: the path has \(chain.count) certificates; Apple's has 3 (leaf, intermediate, root)"
            )
        }
        if let missing = Self.missingMarker(leaf: chain[0], intermediate: chain[1]) {
            return .failsToMeetPolicy(reason: "AppleChainPolicy: \(missing)")
        }
        return .meetsPolicy
    }

    /// Names the first missing marker (leaf first), or nil when both certificates carry theirs.
    static func missingMarker(leaf: Certificate, intermediate: Certificate) -> String? {
        if leaf.extensions[oid: leafMarker] == nil {
            return "the leaf certificate (\(leaf.subject)) lacks extension \(leafMarker)"
        }
        if intermediate.extensions[oid: intermediateMarker] == nil {
            return "the intermediate certificate (\(intermediate.subject)) lacks extension \(intermediateMarker)"
        }
        return nil
    }
}
