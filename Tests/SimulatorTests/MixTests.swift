import AppStoreNotifications
import Foundation
import NotificationTypes
import Simulator
import Testing

/// The configured mix shows up in the export.
@Suite struct MixTests {
    @Test func grace16MakesSixteenDayGracePeriodsAndSixForWeeklies() throws {
        let fixture = try Fixtures.grace16.get()
        let rows = try fixture.truthRows()
        #expect(rows.count > 20)
        #expect(Set(rows.compactMap { $0["product_id"] }).count == 3)
        for row in rows {
            let start = try #require(Int64(row["start_ms"] ?? ""))
            let graceEnd = try #require(Int64(row["grace_end_ms"] ?? ""))
            let days: Int64 = row["product_id"] == "pro.weekly" ? 6 : 16
            #expect(graceEnd - start == days * 86_400_000)
        }
        let failures = fixture.notifications.filter { $0.payload.notificationType == .known(.didFailToRenew) }
        #expect(!failures.isEmpty)
        for failure in failures {
            #expect(failure.payload.subtype == .known(.gracePeriod))
            #expect(failure.payload.data?.status == .known(.billingGracePeriod))
            let expires = try #require(failure.transaction?.expiresDate)
            let days: Int64 = failure.transaction?.productId == "pro.weekly" ? 6 : 16
            // Dated, unless Apple left the date out (undated grace periods).
            let graceEnd = failure.renewalInfo?.gracePeriodExpiresDate
            #expect(graceEnd == nil || graceEnd == expires + days * 86_400_000)
        }
    }

    @Test(arguments: [GraceRenewals.all, .paidToPaid])
    func graceCoversTheConfiguredRenewals(renewals: GraceRenewals) throws {
        var options = SimulationOptions()
        options.subscribers = 1500
        options.seed = 3
        options.months = 6
        options.grace = .days(3)
        options.graceRenewals = renewals
        options.trialRate = 0.5
        options.failureRate = 0.3
        let truth = UnsignedSimulation(options).truth
        let trials = truth.filter(\.isTrialConversion)
        let paid = truth.filter { !$0.isTrialConversion }
        #expect(trials.count > 20)
        #expect(paid.count > 20)
        // Three days for every product: below the weekly cap.
        #expect(paid.allSatisfy { $0.graceEnd == $0.start + 3 * 86_400_000 })
        switch renewals {
        case .all: #expect(trials.allSatisfy { $0.graceEnd == $0.start + 3 * 86_400_000 })
        case .paidToPaid: #expect(trials.allSatisfy { $0.graceEnd == nil })
        }
    }

    @Test func noGraceMakesNoGracePeriods() throws {
        var options = Fixtures.smallOptions
        options.grace = .none
        let fixture = try ExportFixture(options)
        let notifications = fixture.notifications
        #expect(notifications.contains { $0.payload.notificationType == .known(.didFailToRenew) })
        #expect(!notifications.contains { $0.payload.subtype == .known(.gracePeriod) })
        #expect(!notifications.contains { $0.payload.notificationType == .known(.gracePeriodExpired) })
        #expect(!notifications.contains { $0.renewalInfo?.gracePeriodExpiresDate != nil })
        #expect(try fixture.truthRows().allSatisfy { $0["grace_end_ms"] == "" })
    }

    @Test func resendsRepeatLinesAndSomeArriveLate() throws {
        let fixture = try Fixtures.grace16.get()
        let payloads = try fixture.signedPayloads()
        let notifications = fixture.notifications
        #expect(fixture.summary.duplicates > 0)
        #expect(payloads.count - Set(payloads).count == fixture.summary.duplicates)
        let uuids = notifications.compactMap(\.payload.notificationUUID)
        #expect(uuids.count - Set(uuids).count == fixture.summary.duplicates)

        // Late: a notification whose signedDate is before that of the previous line of its subscription.
        var latest: [String: Int64] = [:]
        var late = 0
        for notification in notifications {
            guard let subscription = notification.transaction?.originalTransactionId,
                let signedDate = notification.payload.signedDate
            else { continue }
            if let previous = latest[subscription], signedDate < previous { late += 1 }
            latest[subscription] = max(latest[subscription] ?? .min, signedDate)
        }
        #expect(fixture.summary.lateDeliveries > 0)
        #expect(late > 0)
    }

    @Test func variedExportHasEveryKindOfTraffic() throws {
        let fixture = try Fixtures.varied.get()
        let notifications = fixture.notifications
        func count(_ type: NotificationTypeV2, _ subtype: Subtype? = nil) -> Int {
            notifications.count {
                $0.payload.notificationType == .known(type) && $0.payload.subtype == subtype.map { .known($0) }
            }
        }
        #expect(count(.subscribed, .initialBuy) > 0)
        #expect(count(.subscribed, .resubscribe) > 0)
        #expect(count(.didRenew) > 0)
        #expect(count(.didRenew, .billingRecovery) > 0)
        #expect(count(.didFailToRenew) > 0)
        #expect(count(.didFailToRenew, .gracePeriod) > 0)
        #expect(count(.gracePeriodExpired) > 0)
        #expect(count(.didChangeRenewalStatus, .autoRenewDisabled) > 0)
        #expect(count(.expired, .voluntary) > 0)
        #expect(count(.expired, .billingRetry) > 0)
        #expect(count(.refund) > 0)
        #expect(count(.revoke) > 0)
        #expect(count(.test) > 0)
        #expect(notifications.contains { $0.payload.data?.environment == .known(.sandbox) })
        #expect(notifications.contains { $0.transaction?.inAppOwnershipType == .known(.familyShared) })
        let trials = notifications.filter { $0.transaction?.offerDiscountType == .known(.freeTrial) }
        #expect(!trials.isEmpty)
        #expect(
            trials.allSatisfy { $0.transaction?.offerType == .known(.introductoryOffer) && $0.transaction?.price == 0 })
        #expect(Set(notifications.compactMap(\.transaction?.currency)).count >= 4)
        #expect(Set(notifications.compactMap(\.transaction?.productId)).count == 3)
        let monthlyUSD = notifications.compactMap(\.transaction).filter {
            $0.productId == "pro.monthly" && $0.currency == "USD" && $0.offerDiscountType == nil
        }
        #expect(!monthlyUSD.isEmpty)
        #expect(monthlyUSD.allSatisfy { $0.price == 9990 })
    }
}
