import AppStoreNotifications

/// One line of an export before formatting: a signed notification and, for Get Notification History pages, its
/// delivery attempts.
package struct ExportRecord: Hashable, Sendable {
    /// The compact JWS (`signedPayload`).
    package var signedPayload: String
    /// The App Store's attempts to deliver it (`sendAttempts` of a history item).
    package var sendAttempts: [SendAttemptItem]

    package init(signedPayload: String, sendAttempts: [SendAttemptItem]) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
