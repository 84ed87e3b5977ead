/// One stored notification, reduced to the fields episodes and metrics use. Raw wire strings, Unix milliseconds.
package struct NotificationEvent: Hashable, Sendable {
    package var notificationUUID: String
    /// `DID_FAIL_TO_RENEW` …; unknown values are possible and are ignored by the episode builder.
    package var notificationType: String
    /// Nil when the notification has no subtype.
    package var subtype: String?
    /// When the App Store signed the notification (ms).
    package var signedDate: Int64
    /// `data.environment` (`Production`, `Sandbox`, …).
    package var environment: String?
    /// `data.bundleId`.
    package var bundleId: String?
    /// The subscription; nil for `TEST` and other notifications without a transaction.
    package var originalTransactionId: String?
    package var transactionId: String?
    package var productId: String?
    package var storefront: String?
    package var purchaseDate: Int64?
    package var expiresDate: Int64?
    /// The transaction's price in milliunits of `currency`.
    package var price: Int64?
    package var currency: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    package var inAppOwnershipType: String?
    /// The transaction's offer: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    package var offerType: Int32?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
    package var offerDiscountType: String?
    /// From the renewal info (ms).
    package var gracePeriodExpiresDate: Int64?
    /// From the renewal info: what the next renewal will charge (milliunits of `renewalCurrency`).
    package var renewalPrice: Int64?
    /// From the renewal info: the currency of `renewalPrice`.
    package var renewalCurrency: String?
    /// `PURCHASE` or `RENEWAL`.
    package var transactionReason: String?

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
        transactionReason: String? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
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
    }
}
