import Analysis
import AppStoreNotifications

extension NotificationEvent {
    /// The fields the episode builder reads, from a notification's outer fields, its transaction and its renewal
    /// info: whether those come from a signed notification decoded again or from one the simulator has not signed
    /// yet, the event is built the same way. Enumerations keep their raw wire values.
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
            transactionReason: transaction?.transactionReason?.rawValue,
            appAccountToken: [transaction?.appAccountToken, renewalInfo?.appAccountToken]
                .lazy.compactMap { $0 }.first { !$0.isEmpty },
            appTransactionId: [transaction?.appTransactionId, renewalInfo?.appTransactionId]
                .lazy.compactMap { $0 }.first { !$0.isEmpty },
            previousOriginalTransactionId: transaction?.previousOriginalTransactionId,
            revocationType: transaction?.revocationType?.rawValue,
            revocationPercentage: transaction?.revocationPercentage,
            billingPlanType: transaction?.billingPlanType?.rawValue,
            commitmentBillingPeriodNumber: transaction?.commitmentInfo?.billingPeriodNumber,
            commitmentTotalBillingPeriods: transaction?.commitmentInfo?.totalBillingPeriods
        )
    }
}
