/// The kind of subscription offer.
///
/// [offerType](https://developer.apple.com/documentation/appstoreserverapi/offertype)
package enum OfferType: Int32, CaseIterable, Sendable {
    /// An introductory offer.
    case introductoryOffer = 1
    /// A promotional offer.
    case promotionalOffer = 2
    /// An offer redeemed with an offer code.
    case offerCode = 3
    /// A win-back offer.
    case winBackOffer = 4
}
