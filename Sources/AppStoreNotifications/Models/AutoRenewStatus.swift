/// Whether an auto-renewable subscription renews at the end of its current period.
///
/// [autoRenewStatus](https://developer.apple.com/documentation/appstoreserverapi/autorenewstatus)
package enum AutoRenewStatus: Int32, CaseIterable, Sendable {
    /// Auto-renew is off.
    case off = 0
    /// Auto-renew is on.
    case on = 1
}
