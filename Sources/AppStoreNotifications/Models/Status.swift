/// The status of an auto-renewable subscription as of the notification's `signedDate`.
///
/// [status](https://developer.apple.com/documentation/appstoreserverapi/status)
package enum Status: Int32, CaseIterable, Sendable {
    /// The subscription is active.
    case active = 1
    /// The subscription expired.
    case expired = 2
    /// The subscription is in the billing retry period.
    case billingRetry = 3
    /// The subscription is in the billing grace period.
    case billingGracePeriod = 4
    /// The subscription was revoked.
    case revoked = 5
}
