/// The reason a customer gave when requesting a refund.
///
/// [consumptionRequestReason](https://developer.apple.com/documentation/appstoreservernotifications/consumptionrequestreason)
package enum ConsumptionRequestReason: String, CaseIterable, Sendable {
    /// The customer did not intend to buy.
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    /// The customer did not receive the purchase, or it did not work.
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    /// The customer was not satisfied with the purchase.
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    /// A legal reason.
    case legal = "LEGAL"
    /// Any other reason.
    case other = "OTHER"
}
