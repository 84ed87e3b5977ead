import Analysis
import AppStoreNotifications

/// What a simulation wrote, for the command's report and for tests.
package struct SimulationSummary: Hashable, Sendable {
    package var exportPath = ""
    package var truthPath = ""
    package var rootPath = ""
    /// The end of the simulated history (ms, exclusive): the as-of time the ground truth assumes.
    package var end: Int64 = 0
    package var subscribers = 0
    /// Family members who received `FAMILY_SHARED` copies.
    package var familyMembers = 0
    /// Distinct notifications (resends not counted).
    package var notifications = 0
    /// Lines (or history items) written: notifications plus resends.
    package var records = 0
    package var duplicates = 0
    package var lateDeliveries = 0
    package var sandboxNotifications = 0
    package var familySharedNotifications = 0
    package var testNotifications = 0
    /// Ground-truth episodes per outcome, over Production episodes of purchasers (what a default report counts).
    package var productionEpisodes: [Episode.Outcome: Int] = [:]
    /// All ground-truth rows, Sandbox and family-shared ones included.
    package var truthRows = 0
    package var exportBytes = 0
    package var seconds = 0.0

    package init() {}

    /// Signed notifications per second of wall-clock time.
    package var notificationsPerSecond: Double {
        seconds > 0 ? Double(notifications) / seconds : 0
    }

    mutating func add(_ subscriber: SimulatedSubscriber) {
        subscribers += 1
        familyMembers += subscriber.notifications.count { subscription in
            subscription.first?.transaction?.inAppOwnershipType == .known(.familyShared)
        }
        for subscription in subscriber.notifications {
            for notification in subscription {
                notifications += 1
                if notification.environment == .sandbox { sandboxNotifications += 1 }
                if notification.notificationType == .test { testNotifications += 1 }
                if notification.transaction?.inAppOwnershipType == .known(.familyShared) {
                    familySharedNotifications += 1
                }
            }
        }
        records += subscriber.records.count
        duplicates += subscriber.duplicates
        lateDeliveries += subscriber.lateDeliveries
        truthRows += subscriber.truth.count
        for episode in subscriber.truth where episode.environment == "Production" && episode.ownership == "PURCHASED" {
            productionEpisodes[episode.outcome, default: 0] += 1
        }
    }

    mutating func add(_ other: SimulationSummary) {
        subscribers += other.subscribers
        familyMembers += other.familyMembers
        notifications += other.notifications
        records += other.records
        duplicates += other.duplicates
        lateDeliveries += other.lateDeliveries
        sandboxNotifications += other.sandboxNotifications
        familySharedNotifications += other.familySharedNotifications
        testNotifications += other.testNotifications
        truthRows += other.truthRows
        for (outcome, count) in other.productionEpisodes {
            productionEpisodes[outcome, default: 0] += count
        }
    }
}
