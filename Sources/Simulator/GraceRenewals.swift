/// Which renewals the app's billing grace period covers (App Store Connect's renewal type).
package enum GraceRenewals: String, Hashable, Sendable, CaseIterable {
    /// Every renewal, the first charge after a free trial included.
    case all
    /// Paid-to-paid renewals only: the first charge after a free trial has no grace period.
    case paidToPaid = "paid-to-paid"
}
