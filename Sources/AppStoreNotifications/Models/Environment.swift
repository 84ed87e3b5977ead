/// The server environment that signed the data.
///
/// [environment](https://developer.apple.com/documentation/appstoreserverapi/environment)
package enum Environment: String, CaseIterable, Sendable {
    /// Apple's sandbox for testing; time runs compressed.
    case sandbox = "Sandbox"
    /// Real customers.
    case production = "Production"
    /// StoreKit Testing in Xcode; tokens are self-signed.
    case xcode = "Xcode"
    /// Local tests of Apple's server libraries.
    case localTesting = "LocalTesting"
}
