/// What a history fetch asks Apple for, apart from the time range: the environment, the app and the filters.
///
/// The ranges of one scope follow each other: a fetch without a range starts where the scope's last successful one
/// ended.
package struct HistoryScope: Sendable, Hashable {
    /// `Production` or `Sandbox`.
    package var environment: String
    package var bundleID: String
    /// Only notifications of this type, e.g. `DID_FAIL_TO_RENEW`.
    package var notificationType: String?
    /// Only notifications of this subtype (with ``notificationType``).
    package var notificationSubtype: String?
    /// Only notifications that never reached the app's server.
    package var onlyFailures: Bool

    package init(
        environment: String, bundleID: String, notificationType: String? = nil, notificationSubtype: String? = nil,
        onlyFailures: Bool = false
    ) {
        self.environment = environment
        self.bundleID = bundleID
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.onlyFailures = onlyFailures
    }

    /// How far back Apple keeps the history: 180 days in Production, 30 in Sandbox
    /// ([Get Notification History](https://developer.apple.com/documentation/appstoreserverapi/get-notification-history)).
    package var retentionMilliseconds: Int64 {
        (environment == "Sandbox" ? 30 : 180) * 86_400_000
    }
}
