import Analysis
import AppStoreNotifications

extension NotificationEvent {
    /// The fields the episode builder reads, from a notification before it is signed: the same event as decoding
    /// the signed notification gives, without signing and decoding.
    /// - Parameters:
    ///   - notification: a simulated notification.
    ///   - bundleId: the app's bundle id (`data.bundleId`), from ``SimulationOptions/bundleID``.
    package init(_ notification: SimulatedNotification, bundleId: String) {
        self.init(
            notificationUUID: notification.notificationUUID,
            notificationType: notification.notificationType.rawValue,
            subtype: notification.subtype?.rawValue,
            signedDate: notification.signedDate,
            environment: notification.environment.rawValue,
            bundleId: bundleId,
            transaction: notification.transaction,
            renewalInfo: notification.renewalInfo
        )
    }

    /// The outer fields as given, the rest from the transaction and the renewal info, enumerations as raw wire
    /// values.
    init(
        notificationUUID: String,
        notificationType: String,
        subtype: String?,
        signedDate: Int64,
        environment: String?,
        bundleId: String?,
        transaction: JWSTransactionDecodedPayload?,
        renewalInfo: JWSRenewalInfoDecodedPayload?
    ) {
        self.init(
            notificationUUID: notificationUUID,
            notificationType: notificationType,
            subtype: subtype,
            signedDate: signedDate,
            environment: environment,
            bundleId: bundleId,
            originalTransactionId: transaction?.originalTransactionId,
            transactionId: transaction?.transactionId,
            productId: transaction?.productId,
            storefront: transaction?.storefront,
            purchaseDate: transaction?.purchaseDate,
            expiresDate: transaction?.expiresDate,
            price: transaction?.price,
            currency: transaction?.currency,
            inAppOwnershipType: transaction?.inAppOwnershipType?.rawValue,
            offerType: transaction?.offerType?.rawValue,
            offerDiscountType: transaction?.offerDiscountType?.rawValue,
            gracePeriodExpiresDate: renewalInfo?.gracePeriodExpiresDate,
            renewalPrice: renewalInfo?.renewalPrice,
            renewalCurrency: renewalInfo?.currency,
            transactionReason: transaction?.transactionReason?.rawValue
        )
    }
}
