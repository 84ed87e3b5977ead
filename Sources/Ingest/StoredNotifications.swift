import AppStoreNotifications
import PGClient

/// Which notifications the database holds, looked up by the key their content decides: what Apple's history is
/// compared with (`churn gaps`).
package enum StoredNotifications {
    /// For each of `notifications`, in order, whether the table `notifications` holds it (by its subscription and
    /// its notificationUUID, through the primary key). A notification without a valid UUID is never stored.
    /// - Throws: `PGError`.
    package static func areStored(_ notifications: [DecodedNotification], connection: PGConnection) throws -> [Bool] {
        let keys = notifications.map { decoded in
            NotificationKey(
                subscription: NotificationRow.subscription(of: decoded),
                uuid: decoded.payload.notificationUUID?.lowercased() ?? ""
            )
        }
        let stored = try NotificationKey.stored(keys.filter { UUIDText.isValid($0.uuid) }, connection: connection)
        return keys.map { stored.contains($0) }
    }
}
