extension OfferType {
    /// The value's name in Apple's documentation and App Store Server Library: `INTRODUCTORY_OFFER`,
    /// `PROMOTIONAL_OFFER`, `OFFER_CODE` (formerly `SUBSCRIPTION_OFFER_CODE`), `WIN_BACK_OFFER`.
    ///
    /// [offerType](https://developer.apple.com/documentation/appstoreserverapi/offertype)
    package var name: String {
        switch self {
        case .introductoryOffer: return "INTRODUCTORY_OFFER"
        case .promotionalOffer: return "PROMOTIONAL_OFFER"
        case .offerCode: return "OFFER_CODE"
        case .winBackOffer: return "WIN_BACK_OFFER"
        }
    }
}
