/// The Apple platform on which a customer first bought an app.
///
/// [AppStore.Platform](https://developer.apple.com/documentation/storekit/appstore/platform)
package enum PurchasePlatform: String, CaseIterable, Sendable {
    /// iOS, iPadOS and apps running on Apple silicon Macs.
    case iOS = "iOS"
    /// macOS.
    case macOS = "macOS"
    /// tvOS.
    case tvOS = "tvOS"
    /// visionOS.
    case visionOS = "visionOS"
}
