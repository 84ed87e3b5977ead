/// The type of an in-app purchase (Apple's `type` field; named `ProductType` as in Apple's Swift library).
///
/// [type](https://developer.apple.com/documentation/appstoreserverapi/type)
package enum ProductType: String, CaseIterable, Sendable {
    /// An auto-renewable subscription.
    case autoRenewableSubscription = "Auto-Renewable Subscription"
    /// A non-consumable product.
    case nonConsumable = "Non-Consumable"
    /// A consumable product.
    case consumable = "Consumable"
    /// A non-renewing subscription.
    case nonRenewingSubscription = "Non-Renewing Subscription"
}
