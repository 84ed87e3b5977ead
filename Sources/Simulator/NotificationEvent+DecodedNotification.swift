import Analysis
import AppStoreNotifications

extension NotificationEvent {
    /// The fields the episode builder reads, from a decoded notification: outer fields, `data.environment`
    /// (`summary.environment` or `appData.environment` for notifications without `data`), `data.bundleId`, the
    /// transaction's fields and the renewal info's `gracePeriodExpiresDate`, `renewalPrice` and `currency`.
    /// Enumerations keep their raw wire values.
    /// - Parameter decoded: from `NotificationDecoder.decodeSignedPayload(_:)`, which guarantees
    ///   `notificationUUID`, `notificationType` and `signedDate`.
    package init(_ decoded: DecodedNotification) {
        let payload = decoded.payload
        let transaction = decoded.transaction
        self.init(
            notificationUUID: payload.notificationUUID ?? "",
            notificationType: payload.notificationType?.rawValue ?? "",
            subtype: payload.subtype?.rawValue,
            signedDate: payload.signedDate ?? 0,
            environment: (payload.data?.environment ?? payload.summary?.environment ?? payload.appData?.environment)?
                .rawValue,
            bundleId: payload.data?.bundleId,
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
            gracePeriodExpiresDate: decoded.renewalInfo?.gracePeriodExpiresDate,
            renewalPrice: decoded.renewalInfo?.renewalPrice,
            renewalCurrency: decoded.renewalInfo?.currency,
            transactionReason: transaction?.transactionReason?.rawValue
        )
    }
}
