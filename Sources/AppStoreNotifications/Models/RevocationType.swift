/// How a transaction was revoked.
///
/// [revocationType](https://developer.apple.com/documentation/appstoreserverapi/revocationtype)
package enum RevocationType: String, CaseIterable, Sendable {
    /// A full refund.
    case refundFull = "REFUND_FULL"
    /// A partial refund; `revocationPercentage` says how much.
    case refundProrated = "REFUND_PRORATED"
    /// The Family Sharing entitlement was revoked.
    case familyRevoke = "FAMILY_REVOKE"
}
