import Analysis
import AppStoreNotifications

extension NotificationEvent {
    /// The fields the episode builder reads, from a decoded notification: outer fields, `data.environment`
    /// (`summary.environment` or `appData.environment` for notifications without `data`), `data.bundleId`, the
    /// transaction's fields and the renewal info's `gracePeriodExpiresDate`, `renewalPrice` and `currency`.
    /// Enumerations keep their raw wire values.
    /// - Parameter decoded: from `NotificationDecoder.decodeSignedPayload(_:)`, which guarantees
    ///   `notificationUUID`, `notificationType` and `signedDate`.
    package init(_ decoded: DecodedNotification) {
        let payload = decoded.payload
        self.init(
            notificationUUID: payload.notificationUUID ?? "",
            notificationType: payload.notificationType?.rawValue ?? "",
            subtype: payload.subtype?.rawValue,
            signedDate: payload.signedDate ?? 0,
            environment: (payload.data?.environment ?? payload.summary?.environment ?? payload.appData?.environment)?
                .rawValue,
            bundleId: payload.data?.bundleId,
            transaction: decoded.transaction,
            renewalInfo: decoded.renewalInfo
        )
    }
}
