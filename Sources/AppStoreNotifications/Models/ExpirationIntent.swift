/// The reason an auto-renewable subscription expired.
///
/// [expirationIntent](https://developer.apple.com/documentation/appstoreserverapi/expirationintent)
package enum ExpirationIntent: Int32, CaseIterable, Sendable {
    /// The customer cancelled the subscription.
    case customerCancelled = 1
    /// A billing error, such as an expired payment method.
    case billingError = 2
    /// The customer did not consent to a price increase.
    case customerDidNotConsentToPriceIncrease = 3
    /// The product was not available for purchase at renewal.
    case productNotAvailable = 4
    /// Any other reason.
    case other = 5
}
