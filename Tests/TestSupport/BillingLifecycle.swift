import Analysis

/// The billing-issue life of one Sandbox subscription (samples/billing-lifecycle, as stored events): a failure with
/// grace, grace lost, a recovery after grace; later a failure without grace that expires.
package enum BillingLifecycle {
    package static let subscription = "1000000000000001"
    /// The default as-of: the latest signedDate loaded.
    package static let asOf: Int64 = 1_721_347_200_000

    package static let events = [
        event(
            "093f9e0a-308c-5edd-83aa-70179d290f4a", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: 1_711_843_260_000,
            transaction: "1000000000000001", purchase: 1_709_251_200_000, expires: 1_711_843_200_000,
            reason: "PURCHASE", grace: 1_713_225_600_000),
        event(
            "852a80b4-5552-55eb-9dcd-27681088e767", "GRACE_PERIOD_EXPIRED", nil, signed: 1_713_225_660_000,
            transaction: "1000000000000001", purchase: 1_709_251_200_000, expires: 1_711_843_200_000,
            reason: "PURCHASE", grace: 1_713_225_600_000),
        event(
            "a4d7c5e8-7307-5570-8c5a-d946a51ef84b", "DID_RENEW", "BILLING_RECOVERY", signed: 1_713_571_205_000,
            transaction: "1000000000000002", purchase: 1_713_571_200_000, expires: 1_716_163_200_000,
            reason: "RENEWAL"),
        event(
            "c7d487d1-047a-5e01-b7b7-4ce2abebee0a", "DID_FAIL_TO_RENEW", nil, signed: 1_716_163_260_000,
            transaction: "1000000000000002", purchase: 1_713_571_200_000, expires: 1_716_163_200_000,
            reason: "RENEWAL"),
        event(
            "453029a2-973c-5229-a673-34c6be60e79d", "EXPIRED", "BILLING_RETRY", signed: 1_721_347_200_000,
            transaction: "1000000000000002", purchase: 1_713_571_200_000, expires: 1_716_163_200_000,
            reason: "RENEWAL"),
    ]

    private static func event(
        _ uuid: String, _ type: String, _ subtype: String?, signed: Int64, transaction: String,
        purchase: Int64, expires: Int64, reason: String, grace: Int64? = nil
    ) -> NotificationEvent {
        NotificationEvent(
            notificationUUID: uuid, notificationType: type, subtype: subtype, signedDate: signed,
            environment: "Sandbox", bundleId: "com.example", originalTransactionId: subscription,
            transactionId: transaction,
            productId: "com.example.monthly", storefront: "USA", purchaseDate: purchase, expiresDate: expires,
            price: 9990, currency: "USD", inAppOwnershipType: "PURCHASED", gracePeriodExpiresDate: grace,
            transactionReason: reason
        )
    }
}
