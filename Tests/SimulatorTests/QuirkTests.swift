import Analysis
import AppStoreNotifications
import NotificationTypes
import Simulator
import Testing

/// Each of Apple's quirks shows in the export as configured, the ground truth says what METRICS.md v2 makes of it,
/// and the episode builder agrees.
@Suite struct QuirkTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Many episodes of one grace setting, with every quirk off.
    static var quietOptions: SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 1500
        options.seed = 77
        options.months = 9
        options.grace = .days(16)
        options.failureRate = 0.4
        options.newPurchaseRate = 0
        options.lateFailureNoticeRate = 0
        options.staleFailureNoticeRate = 0
        options.undatedGraceRate = 0
        options.missingExpiryRate = 0
        return options
    }

    static func simulate(_ change: (inout SimulationOptions) -> Void) -> UnsignedSimulation {
        var options = quietOptions
        change(&options)
        return UnsignedSimulation(options)
    }

    @Test func withoutQuirksNothingIsInferredLateOrBoughtAgain() {
        let simulation = Self.simulate { _ in }
        let truth = simulation.productionTruth
        #expect(truth.count > 300)
        #expect(!truth.contains { $0.isEndInferred || $0.isGraceEndInferred || $0.isLateFailureNotice })
        #expect(!truth.contains { $0.staleNotices > 0 || $0.recoveredBy == .newPurchase })
        let dataset = simulation.dataset()
        expectBuilderMatchesTruth(dataset, truth)
        expectQuirkCountsMatchTruth(dataset, truth)
        #expect(dataset.dataQuality.staleFailureNotice == 0)
        #expect(dataset.dataQuality.inferredExpiry == 0)
    }

    @Test func lateFailureNoticesComeAfterTheirRecoveryAndPairWithIt() throws {
        let simulation = Self.simulate { $0.lateFailureNoticeRate = 1 }
        let truth = simulation.productionTruth
        let late = truth.filter(\.isLateFailureNotice)
        #expect(late.count > 100)
        let notifications = Dictionary(simulation.notifications.map { ($0.notificationUUID, $0) }) { first, _ in first }
        for episode in late {
            #expect(episode.outcome == .recovered)
            #expect(episode.recoveredBy == .retry)
            let notice = try #require(notifications[episode.openingNotificationUUID])
            let recovery = try #require(notifications[episode.closingNotificationUUID ?? ""])
            #expect(notice.notificationType == .didFailToRenew)
            #expect(notice.transaction?.expiresDate == episode.start)
            // 1 to 12 hours, give or take the moments before each is signed.
            let lateness = notice.signedDate - recovery.signedDate
            #expect(((Self.hour - 90_000)...(12 * Self.hour + 90_000)).contains(lateness))
            // Only recoveries before the grace period ended: nothing else was notified in between.
            #expect(episode.graceEnd.map { (episode.end ?? 0) <= $0 } ?? true)
        }
        // Every other recovery by retry either came after its grace period ended or too close to the end.
        let others = truth.filter { $0.recoveredBy == .retry && !$0.isLateFailureNotice }
        #expect(others.allSatisfy { !$0.isSavedInGrace || ($0.end ?? 0) > simulation.options.end - Self.day })
        let dataset = simulation.dataset()
        expectBuilderMatchesTruth(dataset, truth)
        expectQuirkCountsMatchTruth(dataset, truth)
    }

    @Test func staleCopiesOfAFailureNoticeOpenNothing() throws {
        let simulation = Self.simulate { $0.staleFailureNoticeRate = 1 }
        let truth = simulation.productionTruth
        let stale = truth.filter { $0.staleNotices > 0 }
        #expect(stale.count > 100)
        #expect(stale.allSatisfy { $0.recoveredBy == .retry && $0.staleNotices == 1 })
        let failures = simulation.notifications.filter { $0.notificationType == .didFailToRenew }
        for episode in stale {
            let copies = failures.filter {
                $0.transaction?.originalTransactionId == episode.subscription
                    && $0.transaction?.expiresDate == episode.start
            }
            // The notice on time, and its copy after the recovery.
            #expect(copies.count == 2)
            #expect(copies.count { $0.signedDate > (episode.end ?? .max) } == 1)
        }
        let dataset = simulation.dataset()
        expectBuilderMatchesTruth(dataset, truth)
        expectQuirkCountsMatchTruth(dataset, truth)
        #expect(dataset.dataQuality.staleFailureNotice == stale.count)
    }

    @Test func undatedGracePeriodsAreInferredFromTheProductsUsualLength() {
        let simulation = Self.simulate { $0.undatedGraceRate = 0.5 }
        let truth = simulation.productionTruth
        let undated = truth.filter(\.isGraceEndInferred)
        #expect(undated.count > 100)
        #expect(undated.allSatisfy { $0.graceEnd != nil })
        let notifications = Dictionary(simulation.notifications.map { ($0.notificationUUID, $0) }) { first, _ in first }
        let subscriptions = Set(undated.map(\.subscription))
        for episode in undated {
            // The failure notice announces a grace period, and nothing from it on dates the grace period.
            guard let opening = notifications[episode.openingNotificationUUID] else {
                Issue.record("no opening notification \(episode.openingNotificationUUID)")
                continue
            }
            #expect(opening.subtype == .gracePeriod)
            let dated = simulation.notifications.contains {
                $0.transaction?.originalTransactionId == episode.subscription && $0.signedDate >= opening.signedDate
                    && $0.transaction?.expiresDate == episode.start && $0.renewalInfo?.gracePeriodExpiresDate != nil
            }
            #expect(!dated)
        }
        #expect(subscriptions.count > 50)
        // One grace setting: the inferred end is the real one (6 days for weekly products, 16 for the others).
        let dataset = simulation.dataset()
        expectBuilderMatchesTruth(dataset, truth)
        expectQuirkCountsMatchTruth(dataset, truth)
    }

    @Test func missingExpiriesEndAtDaySixtyByInference() {
        let simulation = Self.simulate { $0.missingExpiryRate = 1 }
        let truth = simulation.productionTruth
        let inferred = truth.filter(\.isEndInferred)
        #expect(inferred.count > 100)
        #expect(inferred.allSatisfy { $0.outcome == .expired && $0.end == $0.start + 60 * Self.day })
        #expect(inferred.allSatisfy { $0.closingNotificationUUID == nil && $0.isMature })
        // Every unpaid end of retry went unnotified.
        #expect(truth.filter { $0.outcome == .expired }.allSatisfy { $0.isEndInferred })
        #expect(!simulation.notifications.contains { $0.notificationType == .expired && $0.subtype == .billingRetry })
        // Retry that ended less than a day before the end of the history is still open.
        let end = simulation.options.end
        #expect(
            truth.filter { $0.outcome == .open }.allSatisfy { $0.start + 61 * Self.day > end }
        )
        let dataset = simulation.dataset()
        expectBuilderMatchesTruth(dataset, truth)
        expectQuirkCountsMatchTruth(dataset, truth)
    }

    @Test func quirksChangeWhatIsNotifiedNotWhatHappens() {
        let quiet = Self.simulate { _ in }
        let noisy = Self.simulate {
            $0.lateFailureNoticeRate = 0.5
            $0.staleFailureNoticeRate = 0.5
            $0.undatedGraceRate = 0.5
            $0.missingExpiryRate = 0.5
        }
        func happened(_ episode: GroundTruthEpisode) -> String {
            // Whatever the notices say: the episode, its real grace end, its outcome and its end (for an expiry,
            // t0 + 60 days, whether EXPIRED was signed moments later or never came). Within a day of the end of
            // the history an expiry never notified is still open, so only the start counts for young episodes.
            guard episode.isMature else { return "\(episode.subscription) \(episode.start) \(episode.graceEnd ?? -1)" }
            let outcome = episode.isEndInferred ? Episode.Outcome.expired : episode.outcome
            let end = outcome == .expired ? episode.start + 60 * Self.day : episode.end ?? -1
            return "\(episode.subscription) \(episode.start) \(episode.graceEnd ?? -1) \(outcome) \(end)"
        }
        #expect(noisy.truth.contains { $0.isEndInferred || $0.isLateFailureNotice })
        #expect(quiet.truth.map(happened) == noisy.truth.map(happened))
    }
}
