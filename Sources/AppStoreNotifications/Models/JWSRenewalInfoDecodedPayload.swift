/// The renewal information of an auto-renewable subscription, decoded from `signedRenewalInfo`.
///
/// [JWSRenewalInfoDecodedPayload](https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload)
package struct JWSRenewalInfoDecodedPayload: Codable, ScannedDecodable, Hashable, Sendable {
    /// Why the subscription expired (2 is a billing error); present once it has expired or failed to renew.
    package var expirationIntent: OpenEnum<ExpirationIntent>?
    /// The identifier of the first purchase: the subscription's key.
    package var originalTransactionId: String?
    /// The product that renews at the next billing period.
    package var autoRenewProductId: String?
    /// The current product.
    package var productId: String?
    /// Whether the subscription renews at the end of the current period.
    package var autoRenewStatus: OpenEnum<AutoRenewStatus>?
    /// True while the App Store retries billing; omitted (not false) when never in retry.
    package var isInBillingRetryPeriod: Bool?
    /// Whether the customer has responded to a price increase.
    package var priceIncreaseStatus: OpenEnum<PriceIncreaseStatus>?
    /// When the billing grace period ends, in Unix milliseconds; only during (and after) a grace period.
    package var gracePeriodExpiresDate: Int64?
    /// The kind of offer that applies at the next renewal.
    package var offerType: OpenEnum<OfferType>?
    /// The offer identifier or offer code reference name for the next renewal.
    package var offerIdentifier: String?
    /// When the App Store signed this renewal info, in Unix milliseconds.
    package var signedDate: Int64?
    /// The environment that signed the renewal info.
    package var environment: OpenEnum<Environment>?
    /// The start of the current run of paid service, ignoring lapses under 60 days, in Unix milliseconds.
    package var recentSubscriptionStartDate: Int64?
    /// When the most recent purchase expires and the next renewal is due, in Unix milliseconds.
    package var renewalDate: Int64?
    /// The ISO 4217 currency of `renewalPrice`.
    package var currency: String?
    /// The price of the next renewal, in milliunits of `currency`; absent when auto-renew is off.
    package var renewalPrice: Int64?
    /// The payment mode of the offer for the next renewal.
    package var offerDiscountType: OpenEnum<OfferDiscountType>?
    /// The win-back offers the customer may redeem, best first.
    package var eligibleWinBackOfferIds: [String]?
    /// The UUID the app set to link the purchase to its own account, if any (kept as text).
    package var appAccountToken: String?
    /// The identifier of the customer's app transaction.
    package var appTransactionId: String?
    /// The duration of the offer for the next renewal, as an ISO 8601 duration (`P1Y`).
    package var offerPeriod: String?
    /// How the next renewal of a subscription with a 12-month commitment is billed (April 2026).
    package var renewalBillingPlanType: OpenEnum<BillingPlanType>?
    /// The next commitment of a subscription with a 12-month commitment (April 2026).
    package var commitmentInfo: RenewalCommitmentInfo?

    /// Empty renewal info; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case expirationIntent, originalTransactionId, autoRenewProductId, productId, autoRenewStatus
        case isInBillingRetryPeriod, priceIncreaseStatus, gracePeriodExpiresDate, offerType, offerIdentifier
        case signedDate, environment, recentSubscriptionStartDate, renewalDate, currency, renewalPrice
        case offerDiscountType, eligibleWinBackOfferIds, appAccountToken, appTransactionId, offerPeriod
        case renewalBillingPlanType, commitmentInfo
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        expirationIntent = try container.field(.expirationIntent)
        originalTransactionId = try container.field(.originalTransactionId)
        autoRenewProductId = try container.field(.autoRenewProductId)
        productId = try container.field(.productId)
        autoRenewStatus = try container.field(.autoRenewStatus)
        isInBillingRetryPeriod = try container.field(.isInBillingRetryPeriod)
        priceIncreaseStatus = try container.field(.priceIncreaseStatus)
        gracePeriodExpiresDate = try container.unixMilliseconds(.gracePeriodExpiresDate)
        offerType = try container.field(.offerType)
        offerIdentifier = try container.field(.offerIdentifier)
        signedDate = try container.unixMilliseconds(.signedDate)
        environment = try container.field(.environment)
        recentSubscriptionStartDate = try container.unixMilliseconds(.recentSubscriptionStartDate)
        renewalDate = try container.unixMilliseconds(.renewalDate)
        currency = try container.field(.currency)
        renewalPrice = try container.field(.renewalPrice)
        offerDiscountType = try container.field(.offerDiscountType)
        eligibleWinBackOfferIds = try container.field(.eligibleWinBackOfferIds)
        appAccountToken = try container.field(.appAccountToken)
        appTransactionId = try container.field(.appTransactionId)
        offerPeriod = try container.field(.offerPeriod)
        renewalBillingPlanType = try container.field(.renewalBillingPlanType)
        commitmentInfo = try container.field(.commitmentInfo)
    }
}
