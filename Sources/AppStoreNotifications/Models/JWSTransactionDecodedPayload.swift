/// A transaction, decoded from `signedTransactionInfo`.
///
/// [JWSTransactionDecodedPayload](https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload)
package struct JWSTransactionDecodedPayload: Codable, ScannedDecodable, Hashable, Sendable {
    /// The identifier of the first purchase; stable across renewals, retries and grace: the subscription's key.
    package var originalTransactionId: String?
    /// This transaction's identifier, new for each renewal or restore (digits; keep as text).
    package var transactionId: String?
    /// The identifier of the billing-period purchase event, per renewal.
    package var webOrderLineItemId: String?
    /// The app's bundle identifier.
    package var bundleId: String?
    /// The product identifier set up in App Store Connect.
    package var productId: String?
    /// The subscription group the subscription belongs to.
    package var subscriptionGroupIdentifier: String?
    /// When the App Store charged the customer, in Unix milliseconds (for a recovered renewal, the recovery time).
    package var purchaseDate: Int64?
    /// When the original transaction was purchased, in Unix milliseconds.
    package var originalPurchaseDate: Int64?
    /// When the period this transaction covers ends, in Unix milliseconds.
    package var expiresDate: Int64?
    /// The number of consumable products bought.
    package var quantity: Int32?
    /// The type of the in-app purchase.
    package var type: OpenEnum<ProductType>?
    /// The UUID the app set to link the purchase to its own account, if any (kept as text).
    package var appAccountToken: String?
    /// Whether the customer bought the product or has it through Family Sharing.
    package var inAppOwnershipType: OpenEnum<InAppOwnershipType>?
    /// When the App Store signed this transaction, in Unix milliseconds.
    package var signedDate: Int64?
    /// Why the App Store refunded or revoked the transaction.
    package var revocationReason: OpenEnum<RevocationReason>?
    /// When the App Store refunded or revoked the transaction, in Unix milliseconds.
    package var revocationDate: Int64?
    /// Whether the customer upgraded to another subscription.
    package var isUpgraded: Bool?
    /// The kind of offer that applied to this transaction.
    package var offerType: OpenEnum<OfferType>?
    /// The offer identifier or offer code reference name.
    package var offerIdentifier: String?
    /// The environment that signed the transaction.
    package var environment: OpenEnum<Environment>?
    /// The storefront's ISO 3166-1 alpha-3 country code.
    package var storefront: String?
    /// Apple's identifier of the storefront.
    package var storefrontId: String?
    /// Whether this is a customer's purchase or a system renewal.
    package var transactionReason: OpenEnum<TransactionReason>?
    /// The ISO 4217 currency of `price`.
    package var currency: String?
    /// The price charged, in milliunits of `currency` (9990 is 9.99); the offer price when an offer applied.
    package var price: Int64?
    /// The payment mode of the offer that applied.
    package var offerDiscountType: OpenEnum<OfferDiscountType>?
    /// The identifier of the customer's app transaction.
    package var appTransactionId: String?
    /// The duration of the offer that applied, as an ISO 8601 duration (`P1Y`).
    package var offerPeriod: String?
    /// How the transaction was revoked.
    package var revocationType: OpenEnum<RevocationType>?
    /// The refunded share for a prorated refund, in milli-percent (50000 is 50 %).
    package var revocationPercentage: Int32?
    /// The original transaction id of the subscription this one continues after a migration (March 2025).
    package var previousOriginalTransactionId: String?
    /// How a subscription with a 12-month commitment is billed (April 2026).
    package var billingPlanType: OpenEnum<BillingPlanType>?
    /// Where this transaction stands in its 12-month commitment (April 2026).
    package var commitmentInfo: TransactionCommitmentInfo?

    /// An empty transaction; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId
        case subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity, type
        case appAccountToken, inAppOwnershipType, signedDate, revocationReason, revocationDate, isUpgraded
        case offerType, offerIdentifier, environment, storefront, storefrontId, transactionReason, currency, price
        case offerDiscountType, appTransactionId, offerPeriod, revocationType, revocationPercentage
        case previousOriginalTransactionId, billingPlanType, commitmentInfo
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        originalTransactionId = try container.field(.originalTransactionId)
        transactionId = try container.field(.transactionId)
        webOrderLineItemId = try container.field(.webOrderLineItemId)
        bundleId = try container.field(.bundleId)
        productId = try container.field(.productId)
        subscriptionGroupIdentifier = try container.field(.subscriptionGroupIdentifier)
        purchaseDate = try container.unixMilliseconds(.purchaseDate)
        originalPurchaseDate = try container.unixMilliseconds(.originalPurchaseDate)
        expiresDate = try container.unixMilliseconds(.expiresDate)
        quantity = try container.field(.quantity)
        type = try container.field(.type)
        appAccountToken = try container.field(.appAccountToken)
        inAppOwnershipType = try container.field(.inAppOwnershipType)
        signedDate = try container.unixMilliseconds(.signedDate)
        revocationReason = try container.field(.revocationReason)
        revocationDate = try container.unixMilliseconds(.revocationDate)
        isUpgraded = try container.field(.isUpgraded)
        offerType = try container.field(.offerType)
        offerIdentifier = try container.field(.offerIdentifier)
        environment = try container.field(.environment)
        storefront = try container.field(.storefront)
        storefrontId = try container.field(.storefrontId)
        transactionReason = try container.field(.transactionReason)
        currency = try container.field(.currency)
        price = try container.field(.price)
        offerDiscountType = try container.field(.offerDiscountType)
        appTransactionId = try container.field(.appTransactionId)
        offerPeriod = try container.field(.offerPeriod)
        revocationType = try container.field(.revocationType)
        revocationPercentage = try container.field(.revocationPercentage)
        previousOriginalTransactionId = try container.field(.previousOriginalTransactionId)
        billingPlanType = try container.field(.billingPlanType)
        commitmentInfo = try container.field(.commitmentInfo)
    }
}
