import Analysis
import AppStoreNotifications
import NotificationTypes

/// One notification the simulator means to send, before signing: the outer fields and the decoded transaction and
/// renewal info, plus what it does to the subscription's billing-retry episode.
package struct SimulatedNotification: Hashable, Sendable {
    /// What a notification means for the episode it belongs to, as the simulator decided it.
    package enum EpisodeRole: Hashable, Sendable {
        /// Nothing: an ordinary event, or one inside an episode that leaves it open.
        case none
        /// Opens an episode.
        case opens(Opening)
        /// Closes the subscription's episode number `episode` with `outcome`; a recovery says what made it
        /// (`recoveredBy`).
        case closes(episode: Int, outcome: Episode.Outcome, recoveredBy: Episode.RecoveredBy? = nil)
        /// A late copy of the failure notice of episode `episode`, after its recovery: it opens nothing.
        case staleCopy(episode: Int)
    }

    /// What the simulator decided about an episode when it opened it.
    package struct Opening: Hashable, Sendable {
        /// The episode's number within its subscription: 1, 2, …
        package var episode: Int
        /// t0: the failed period's end.
        package var start: Int64
        /// The end of its grace period; nil: no grace period.
        package var graceEnd: Int64?
        /// No notification of the episode carries `gracePeriodExpiresDate`: the grace end is known to the
        /// simulator only.
        package var isGraceUndated: Bool
        /// This failure notice was signed after the recovery that resolved the episode.
        package var isLate: Bool
        /// Retry ends unpaid at t0 + 60 days without `EXPIRED`/`BILLING_RETRY`.
        package var isExpiryUnnotified: Bool
        /// With the app's sheet modelled (``SimulationOptions/sheets``): the episode's experiment arm, if any, and the
        /// retry days on which the app showed the sheet before the episode ended.
        package var sheetArm: String?
        package var shownDays: [Int] = []

        package init(
            episode: Int,
            start: Int64,
            graceEnd: Int64?,
            isGraceUndated: Bool = false,
            isLate: Bool = false,
            isExpiryUnnotified: Bool = false
        ) {
            self.episode = episode
            self.start = start
            self.graceEnd = graceEnd
            self.isGraceUndated = isGraceUndated
            self.isLate = isLate
            self.isExpiryUnnotified = isExpiryUnnotified
        }
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
