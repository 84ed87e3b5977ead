/// Additional information that identifies the notification event; absent for many notification types.
///
/// [subtype](https://developer.apple.com/documentation/appstoreservernotifications/subtype)
package enum Subtype: String, CaseIterable, Sendable {
    /// A first purchase of the subscription (with `SUBSCRIBED`).
    case initialBuy = "INITIAL_BUY"
    /// A resubscription to the same group after a lapse (with `SUBSCRIBED`).
    case resubscribe = "RESUBSCRIBE"
    /// A downgrade that takes effect at the next renewal.
    case downgrade = "DOWNGRADE"
    /// An upgrade that takes effect immediately.
    case upgrade = "UPGRADE"
    /// Auto-renew was turned on.
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    /// Auto-renew was turned off.
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    /// Expired after the customer turned auto-renew off.
    case voluntary = "VOLUNTARY"
    /// Expired because billing retry ended without a successful charge (involuntary churn).
    case billingRetry = "BILLING_RETRY"
    /// Expired because the customer did not consent to a price increase.
    case priceIncrease = "PRICE_INCREASE"
    /// A failed renewal inside the billing grace period (with `DID_FAIL_TO_RENEW`).
    case gracePeriod = "GRACE_PERIOD"
    /// A price increase the customer has not responded to.
    case pending = "PENDING"
    /// A price increase the customer accepted, or one that needed no consent.
    case accepted = "ACCEPTED"
    /// A renewal that recovered from a billing failure (with `DID_RENEW`).
    case billingRecovery = "BILLING_RECOVERY"
    /// Expired because the product was not available for sale at renewal.
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    /// A mass renewal-date extension finished (with `RENEWAL_EXTENSION`).
    case summary = "SUMMARY"
    /// A renewal-date extension failed for one subscription (with `RENEWAL_EXTENSION`).
    case failure = "FAILURE"
    /// An external purchase token was not reported in time (with `EXTERNAL_PURCHASE_TOKEN`).
    case unreported = "UNREPORTED"
    /// A reminder that an external purchase token is still active (with `EXTERNAL_PURCHASE_TOKEN`).
    case activeTokenReminder = "ACTIVE_TOKEN_REMINDER"
    /// An external purchase token was created (with `EXTERNAL_PURCHASE_TOKEN`).
    case created = "CREATED"
}
