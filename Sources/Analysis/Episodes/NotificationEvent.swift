import NotificationTypes

/// One stored notification, reduced to the fields episodes and metrics use. Raw wire strings, Unix milliseconds.
///
/// The fields are constants: with variables, the compiler's initializer built the event twice and copied one into
/// the other, retaining and releasing each string once more for every notification an analysis reads.
package struct NotificationEvent: Hashable, Sendable {
    package let notificationUUID: String
    /// `DID_FAIL_TO_RENEW` …; nil for a type this code does not know, which the episode builder ignores.
    package let notificationType: NotificationTypeV2?
    /// Nil when the notification has no subtype, or one this code does not know.
    package let subtype: Subtype?
    /// When the App Store signed the notification (ms).
    package let signedDate: Int64
    /// `data.environment` (`Production`, `Sandbox`, …).
    package let environment: String?
    /// `data.bundleId`.
    package let bundleId: String?
    /// The subscription; nil for `TEST` and other notifications without a transaction.
    package let originalTransactionId: String?
    package let transactionId: String?
    package let productId: String?
    package let storefront: String?
    package let purchaseDate: Int64?
    package let expiresDate: Int64?
    /// The transaction's price in milliunits of `currency`.
    package let price: Int64?
    package let currency: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    package let inAppOwnershipType: String?
    /// The transaction's offer: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    package let offerType: Int32?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
    package let offerDiscountType: String?
    /// From the renewal info (ms).
    package let gracePeriodExpiresDate: Int64?
    /// From the renewal info: what the next renewal will charge (milliunits of `renewalCurrency`).
    package let renewalPrice: Int64?
    /// From the renewal info: the currency of `renewalPrice`.
    package let renewalCurrency: String?
    /// `PURCHASE` or `RENEWAL`.
    package let transactionReason: String?
    /// The app's own user id: the transaction's `appAccountToken`, else the renewal info's; nil when empty.
    package let appAccountToken: String?
    /// The customer's Apple Account for this app: the transaction's `appTransactionId`, else the renewal info's.
    package let appTransactionId: String?
    /// The transaction's `previousOriginalTransactionId`: the subscription this one continues after a migration.
    package let previousOriginalTransactionId: String?
    /// The transaction's `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`).
    package let revocationType: String?
    /// The transaction's `revocationPercentage`, in milli-percent.
    package let revocationPercentage: Int32?
    /// The transaction's `billingPlanType`: `MONTHLY` for a monthly subscription with a 12-month commitment.
    package let billingPlanType: String?
    /// The transaction's `commitmentInfo.billingPeriodNumber`: the installment this transaction paid (n).
    package let commitmentBillingPeriodNumber: Int32?
    /// The transaction's `commitmentInfo.totalBillingPeriods`: the installments of the commitment (N).
    package let commitmentTotalBillingPeriods: Int32?

    /// - Parameters:
    ///   - notificationType: the type as it is on the wire (`DID_RENEW`).
    ///   - subtype: the subtype as it is on the wire (`BILLING_RECOVERY`).
    package init(
        notificationUUID: String,
        notificationType: String,
        subtype: String? = nil,
        signedDate: Int64,
        environment: String? = nil,
        bundleId: String? = nil,
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        productId: String? = nil,
        storefront: String? = nil,
        purchaseDate: Int64? = nil,
        expiresDate: Int64? = nil,
        price: Int64? = nil,
        currency: String? = nil,
        inAppOwnershipType: String? = nil,
        offerType: Int32? = nil,
        offerDiscountType: String? = nil,
        gracePeriodExpiresDate: Int64? = nil,
        renewalPrice: Int64? = nil,
        renewalCurrency: String? = nil,
        transactionReason: String? = nil,
        appAccountToken: String? = nil,
        appTransactionId: String? = nil,
        previousOriginalTransactionId: String? = nil,
        revocationType: String? = nil,
        revocationPercentage: Int32? = nil,
        billingPlanType: String? = nil,
        commitmentBillingPeriodNumber: Int32? = nil,
        commitmentTotalBillingPeriods: Int32? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.notificationType = NotificationTypeV2(rawValue: notificationType)
        self.subtype = subtype.flatMap(Subtype.init(rawValue:))
        self.signedDate = signedDate
        self.environment = environment
        self.bundleId = bundleId
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.productId = productId
        self.storefront = storefront
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.price = price
        self.currency = currency
        self.inAppOwnershipType = inAppOwnershipType
        self.offerType = offerType
        self.offerDiscountType = offerDiscountType
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.renewalPrice = renewalPrice
        self.renewalCurrency = renewalCurrency
        self.transactionReason = transactionReason
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.previousOriginalTransactionId = previousOriginalTransactionId
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.billingPlanType = billingPlanType
        self.commitmentBillingPeriodNumber = commitmentBillingPeriodNumber
        self.commitmentTotalBillingPeriods = commitmentTotalBillingPeriods
    }
}
