import Analysis
import AppStoreNotifications

/// One billing-retry episode as the simulator meant it to happen: a row of the ground-truth file.
///
/// It follows METRICS.md: `start` (t0) is the failed transaction's `expiresDate`, a recovery ends at the recovering
/// transaction's `purchaseDate`, every other outcome at its notification's `signedDate`; an episode still open at the
/// export's end is `open`. Family-shared and Sandbox episodes are included and told apart by `ownership` and
/// `environment` (a report counts only `PURCHASED` episodes of one environment).
package struct GroundTruthEpisode: Hashable, Sendable {
    /// The `originalTransactionId`.
    package var subscription: String
    /// 1 for the subscription's first episode, 2 for the next, …
    package var sequence: Int
    package var environment: String
    /// `PURCHASED` or `FAMILY_SHARED`.
    package var ownership: String
    package var productId: String
    package var storefront: String
    /// t0 (ms).
    package var start: Int64
    /// `gracePeriodExpiresDate` (ms); nil without a grace period.
    package var graceEnd: Int64?
    /// When it closed (ms); nil while open.
    package var end: Int64?
    package var outcome: Episode.Outcome
    /// The recovering transaction's price (milliunits) and currency, for recovered episodes.
    package var recoveryPrice: Int64?
    package var currency: String?
    /// The failed charge was the first one after a free trial.
    package var isTrialConversion: Bool
    package var openingNotificationUUID: String
    package var closingNotificationUUID: String?

    /// `YYYY-MM` of `start` (UTC).
    package var cohort: String { CalendarPeriod(monthContaining: start).description }

    /// Recovered at or before the end of its grace period.
    package var isSavedInGrace: Bool {
        guard outcome == .recovered, let graceEnd, let end else { return false }
        return end <= graceEnd
    }

    /// The CSV columns, in order.
    package static let columns = [
        "subscription", "sequence", "environment", "ownership", "product_id", "storefront", "start_ms",
        "grace_end_ms", "end_ms", "outcome", "cohort", "recovery_price", "currency", "trial_conversion",
        "opening_uuid", "closing_uuid",
    ]

    /// The row's fields, in the order of ``columns``; absent values are empty.
    package var fields: [String] {
        [
            subscription, String(sequence), environment, ownership, productId, storefront, String(start),
            graceEnd.map(String.init) ?? "", end.map(String.init) ?? "", outcome.rawValue, cohort,
            recoveryPrice.map(String.init) ?? "", currency ?? "", isTrialConversion ? "true" : "false",
            openingNotificationUUID, closingNotificationUUID ?? "",
        ]
    }

    /// The episodes of one subscription, from the roles the simulator gave its notifications.
    /// - Parameter notifications: one subscription's notifications, in signed order.
    package static func episodes(of notifications: [SimulatedNotification]) -> [GroundTruthEpisode] {
        var episodes: [GroundTruthEpisode] = []
        var open: GroundTruthEpisode?
        for notification in notifications {
            guard let transaction = notification.transaction else { continue }
            switch notification.role {
            case .none:
                break
            case .opens(let start, let graceEnd):
                open = GroundTruthEpisode(
                    subscription: transaction.originalTransactionId ?? "",
                    sequence: episodes.count + 1,
                    environment: notification.environment.rawValue,
                    ownership: transaction.inAppOwnershipType?.rawValue ?? "",
                    productId: transaction.productId ?? "",
                    storefront: transaction.storefront ?? "",
                    start: start,
                    graceEnd: graceEnd,
                    outcome: .open,
                    isTrialConversion: transaction.offerDiscountType == .known(.freeTrial),
                    openingNotificationUUID: notification.notificationUUID
                )
            case .closes(let outcome):
                guard var closing = open else { continue }
                closing.outcome = outcome
                closing.closingNotificationUUID = notification.notificationUUID
                if outcome == .recovered {
                    closing.end = transaction.purchaseDate ?? notification.signedDate
                    closing.recoveryPrice = transaction.price
                    closing.currency = transaction.currency
                } else {
                    closing.end = notification.signedDate
                }
                episodes.append(closing)
                open = nil
            }
        }
        if let open { episodes.append(open) }
        return episodes
    }
}
