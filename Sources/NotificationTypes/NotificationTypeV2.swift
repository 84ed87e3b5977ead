/// The event for which the App Store sent a version 2 notification.
///
/// [notificationType](https://developer.apple.com/documentation/appstoreservernotifications/notificationtype)
package enum NotificationTypeV2: String, CaseIterable, Sendable {
    /// The customer subscribed (subtype `INITIAL_BUY`) or resubscribed after a lapse (`RESUBSCRIBE`).
    case subscribed = "SUBSCRIBED"
    /// The customer changed plan: `UPGRADE`, `DOWNGRADE`, or no subtype for a reverted downgrade.
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// The customer or the App Store turned auto-renew on (`AUTO_RENEW_ENABLED`) or off (`AUTO_RENEW_DISABLED`).
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// An offer was redeemed on an active subscription.
    case offerRedeemed = "OFFER_REDEEMED"
    /// The subscription renewed; subtype `BILLING_RECOVERY` when it recovered from a billing failure.
    case didRenew = "DID_RENEW"
    /// The subscription expired; subtype `BILLING_RETRY` when billing retry ended without a charge.
    case expired = "EXPIRED"
    /// A renewal failed for a billing problem; subtype `GRACE_PERIOD` while service continues in grace.
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    /// The billing grace period ended without a renewal; billing retry continues.
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    /// A price increase needs consent: `PENDING` (not responded) or `ACCEPTED`.
    case priceIncrease = "PRICE_INCREASE"
    /// The App Store refunded a transaction.
    case refund = "REFUND"
    /// The App Store declined a refund request.
    case refundDeclined = "REFUND_DECLINED"
    /// The customer asked for a refund and the App Store asks for consumption information.
    case consumptionRequest = "CONSUMPTION_REQUEST"
    /// The renewal date of one subscription was extended.
    case renewalExtended = "RENEWAL_EXTENDED"
    /// A Family Sharing entitlement is no longer available.
    case revoke = "REVOKE"
    /// A notification requested through the Request a Test Notification endpoint.
    case test = "TEST"
    /// A mass renewal-date extension finished (`SUMMARY`) or failed for one subscription (`FAILURE`).
    case renewalExtension = "RENEWAL_EXTENSION"
    /// A granted refund was reversed.
    case refundReversed = "REFUND_REVERSED"
    /// An External Purchase API token event.
    case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
    /// A purchase of a consumable, non-consumable or non-renewing subscription.
    case oneTimeCharge = "ONE_TIME_CHARGE"
    /// The customer rescinded consent; the payload carries `appData`, not `data`.
    case rescindConsent = "RESCIND_CONSENT"
    /// Advanced Commerce API: subscription metadata changed.
    case metadataUpdate = "METADATA_UPDATE"
    /// A subscription migrated (for instance between a standalone subscription and a bundle, or into the Advanced
    /// Commerce API): the new subscription's transaction carries `previousOriginalTransactionId`. Apple's changelog
    /// of 2025-03-24 and this project's contract name it `MIGRATE`; Apple's server libraries spell it `MIGRATION`
    /// (``migration``). Both are read alike: neither opens, closes nor returns anything.
    case migrate = "MIGRATE"
    /// `MIGRATE` as Apple's server libraries spell it.
    case migration = "MIGRATION"
    /// Advanced Commerce API: a price changed.
    case priceChange = "PRICE_CHANGE"
}
