/// Whether the customer has responded to a subscription price increase.
///
/// [priceIncreaseStatus](https://developer.apple.com/documentation/appstoreserverapi/priceincreasestatus)
package enum PriceIncreaseStatus: Int32, CaseIterable, Sendable {
    /// The customer has not responded to a price increase that needs consent.
    case customerHasNotResponded = 0
    /// The customer consented, or was notified of an increase that needs no consent.
    case customerConsentedOrWasNotifiedWithoutNeedingConsent = 1
}
