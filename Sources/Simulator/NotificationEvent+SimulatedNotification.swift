import Analysis
import AppStoreNotifications
import NotificationTypes

extension NotificationEvent {
    /// The fields the episode builder reads, from a notification before it is signed: the same event as decoding
    /// the signed notification gives, without signing and decoding.
    /// - Parameters:
    ///   - notification: a simulated notification.
    ///   - bundleId: the app's bundle id (`data.bundleId`), from ``SimulationOptions/bundleID``.
    package init(_ notification: SimulatedNotification, bundleId: String) {
        self.init(
            notificationUUID: notification.notificationUUID,
            notificationType: notification.notificationType.rawValue,
            subtype: notification.subtype?.rawValue,
            signedDate: notification.signedDate,
            environment: notification.environment.rawValue,
            bundleId: bundleId,
            transaction: notification.transaction,
            renewalInfo: notification.renewalInfo
        )
    }
}
