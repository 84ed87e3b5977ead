/// Why the App Store refunded a transaction or revoked it from Family Sharing.
///
/// [revocationReason](https://developer.apple.com/documentation/appstoreserverapi/revocationreason)
package enum RevocationReason: Int32, CaseIterable, Sendable {
    /// Refunded for another reason, such as an accidental purchase.
    case refundedForOtherReason = 0
    /// Refunded because of an actual or perceived issue within the app.
    case refundedDueToIssue = 1
}
