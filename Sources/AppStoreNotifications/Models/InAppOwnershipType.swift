/// Whether the customer bought the product or has it through Family Sharing.
///
/// [inAppOwnershipType](https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype)
package enum InAppOwnershipType: String, CaseIterable, Sendable {
    /// Available through Family Sharing.
    case familyShared = "FAMILY_SHARED"
    /// Bought by the customer.
    case purchased = "PURCHASED"
}
