/// The payment mode of a subscription offer.
///
/// [offerDiscountType](https://developer.apple.com/documentation/appstoreserverapi/offerdiscounttype)
package enum OfferDiscountType: String, CaseIterable, Sendable {
    /// A free trial.
    case freeTrial = "FREE_TRIAL"
    /// A discounted price for each period of the offer.
    case payAsYouGo = "PAY_AS_YOU_GO"
    /// One up-front payment for the whole offer duration.
    case payUpFront = "PAY_UP_FRONT"
    /// A one-time payment.
    case oneTime = "ONE_TIME"
}
