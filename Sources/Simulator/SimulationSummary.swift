import Analysis
import AppStoreNotifications
import NotificationTypes

/// What a simulation wrote, for the command's report and for tests.
package struct SimulationSummary: Hashable, Sendable {
    package var exportPath = ""
    package var truthPath = ""
    package var rootPath = ""
    /// The app's log of the billing-issue sheet; empty when none was written.
    package var messagesPath = ""
    /// Lines of that log.
    package var messageEvents = 0
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
    /// Apple's quirks in the same episodes: what a default report's data-quality checks should find.
    package var productionQuirks = Quirks()
    /// All ground-truth rows, Sandbox and family-shared ones included.
    package var truthRows = 0
    package var exportBytes = 0
    package var seconds = 0.0

    package init() {}

    /// How often each of Apple's quirks (and the new purchases during retry) happened.
    package struct Quirks: Hashable, Sendable {
        /// Episodes whose failure notice came after their recovery (`late_failure_notice`).
        package var lateFailureNotices = 0
        /// Copies of a failure notice for a period already recovered (`stale_failure_notice`).
        package var staleFailureNotices = 0
        /// Grace periods no notification dated (`grace_end_inferred`).
        package var undatedGracePeriods = 0
        /// Episodes expired without `EXPIRED`/`BILLING_RETRY` (`inferred_expiry`).
        package var inferredExpiries = 0
        /// Episodes recovered by a new paid purchase.
        package var newPurchaseRecoveries = 0

        package init() {}

        mutating func add(_ episode: GroundTruthEpisode) {
            if episode.isLateFailureNotice { lateFailureNotices += 1 }
            staleFailureNotices += episode.staleNotices
            if episode.isGraceEndInferred { undatedGracePeriods += 1 }
            if episode.isEndInferred { inferredExpiries += 1 }
            if episode.recoveredBy == .newPurchase { newPurchaseRecoveries += 1 }
        }

        mutating func add(_ other: Quirks) {
            lateFailureNotices += other.lateFailureNotices
            staleFailureNotices += other.staleFailureNotices
            undatedGracePeriods += other.undatedGracePeriods
            inferredExpiries += other.inferredExpiries
            newPurchaseRecoveries += other.newPurchaseRecoveries
        }
    }

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
        messageEvents += subscriber.sheetEvents.count
        for episode in subscriber.truth where episode.environment == "Production" && episode.ownership == "PURCHASED" {
            productionEpisodes[episode.outcome, default: 0] += 1
            productionQuirks.add(episode)
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
        messageEvents += other.messageEvents
        for (outcome, count) in other.productionEpisodes {
            productionEpisodes[outcome, default: 0] += count
        }
        productionQuirks.add(other.productionQuirks)
    }
}
