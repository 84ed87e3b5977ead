/// The type of an external purchase custom link token.
///
/// [tokenType](https://developer.apple.com/documentation/appstoreservernotifications/tokentype)
package enum TokenType: String, CaseIterable, Sendable {
    /// A token for customer acquisition.
    case acquisition = "ACQUISITION"
    /// A token for services.
    case services = "SERVICES"
}
