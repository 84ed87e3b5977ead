import Analysis
import AppStoreNotifications

/// One notification the simulator means to send, before signing: the outer fields and the decoded transaction and
/// renewal info, plus what it does to the subscription's billing-retry episode.
package struct SimulatedNotification: Hashable, Sendable {
    /// What a notification means for the episode it belongs to, as the simulator decided it.
    package enum EpisodeRole: Hashable, Sendable {
        /// Nothing: an ordinary event, or one inside an episode that leaves it open.
        case none
        /// Opens an episode starting at `start` (the failed period's end), with a grace period ending at
        /// `graceEnd` (nil: no grace period).
        case opens(start: Int64, graceEnd: Int64?)
        /// Closes the open episode with this outcome.
        case closes(Episode.Outcome)
    }

    package var notificationType: NotificationTypeV2
    package var subtype: Subtype?
    package var notificationUUID: String
    package var signedDate: Int64
    package var environment: Environment
    /// `data.status`; nil for `TEST`.
    package var status: Status?
    /// `data.signedTransactionInfo` before signing; nil for `TEST`.
    package var transaction: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo` before signing; nil for `TEST`.
    package var renewalInfo: JWSRenewalInfoDecodedPayload?
    package var role: EpisodeRole

    package init(
        notificationType: NotificationTypeV2,
        subtype: Subtype? = nil,
        notificationUUID: String,
        signedDate: Int64,
        environment: Environment,
        status: Status? = nil,
        transaction: JWSTransactionDecodedPayload? = nil,
        renewalInfo: JWSRenewalInfoDecodedPayload? = nil,
        role: EpisodeRole = .none
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.environment = environment
        self.status = status
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.role = role
    }

    /// The subscription it belongs to; nil for `TEST`.
    package var originalTransactionId: String? { transaction?.originalTransactionId }
}
