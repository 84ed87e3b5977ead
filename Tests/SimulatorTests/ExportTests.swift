import Analysis
import AppStoreNotifications
import Foundation
import NotificationTypes
import Simulator
import Testing

@Suite struct ExportTests {
    @Test func sameSeedGivesIdenticalFiles() throws {
        let first = try Fixtures.small.get()
        let again = try ExportFixture(Fixtures.smallOptions, workers: 1)
        #expect(try first.exportBytes() == again.exportBytes())
        #expect(try first.truthText() == again.truthText())
        #expect(try first.rootDER() == again.rootDER())

        var options = Fixtures.smallOptions
        options.seed += 1
        let other = try ExportFixture(options)
        #expect(try first.exportBytes() != other.exportBytes())
        #expect(try first.truthText() != other.truthText())
        #expect(try first.rootDER() != other.rootDER())
    }

    @Test func aLaterStartGivesNewIdentifiers() throws {
        let first = try Fixtures.small.get()
        var options = Fixtures.smallOptions
        options.start += 86_400_000
        let nextDay = try ExportFixture(options)
        func uuids(_ fixture: ExportFixture) -> Set<String> {
            Set(fixture.notifications.compactMap(\.payload.notificationUUID))
        }
        func subscriptions(_ fixture: ExportFixture) -> Set<String> {
            Set(fixture.notifications.compactMap { $0.transaction?.originalTransactionId })
        }
        #expect(!uuids(first).isEmpty && !subscriptions(first).isEmpty)
        #expect(uuids(first).isDisjoint(with: uuids(nextDay)))
        #expect(subscriptions(first).isDisjoint(with: subscriptions(nextDay)))
        // Signed under the same root: one --trust-root serves every export of a seed (once each start made its own).
        #expect(try first.rootDER() == nextDay.rootDER())
        options.months += 1
        #expect(try first.rootDER() == ExportFixture(options).rootDER())
        // The default start is the identifiers' own epoch: its identity seed is the seed.
        #expect(SimulationOptions().identitySeed == SimulationOptions().seed)
        #expect(options.identitySeed != options.seed)
    }

    @Test func everyLineDecodesAndVerifies() throws {
        let fixture = try Fixtures.small.get()
        // As `churn load --trust-root export.root.der` reads it.
        let roots = try JWSVerifier.trustRoots(parsing: Array(fixture.rootDER()), from: fixture.output.rootPath)
        let verifier = JWSVerifier(trustRoots: roots)
        let notifications = fixture.notifications
        #expect(notifications.count == fixture.summary.records)
        for notification in notifications {
            let payload = notification.payload
            let signedDate = try #require(payload.signedDate)
            try verifier.verify(notification.jws, at: Self.date(signedDate))
            #expect(payload.version == "2.0")
            #expect(UUID(uuidString: payload.notificationUUID ?? "") != nil)
            let data = try #require(payload.data)
            #expect(data.appAppleId == fixture.options.appAppleID)
            #expect(data.bundleId == fixture.options.bundleID)
            #expect(data.environment != nil)
            if payload.notificationType == .known(.test) {
                #expect(notification.transaction == nil)
                continue
            }
            #expect(data.bundleVersion != nil)
            #expect(data.status != nil)

            let transaction = try #require(notification.transaction)
            let transactionJWS = try #require(notification.transactionJWS)
            try verifier.verify(transactionJWS, at: Self.date(try #require(transaction.signedDate)))
            #expect(transaction.signedDate == signedDate)
            let required: [Any?] = [
                transaction.transactionId, transaction.originalTransactionId, transaction.webOrderLineItemId,
                transaction.bundleId, transaction.productId, transaction.subscriptionGroupIdentifier,
                transaction.purchaseDate, transaction.originalPurchaseDate, transaction.expiresDate,
                transaction.quantity, transaction.type, transaction.inAppOwnershipType, transaction.environment,
                transaction.transactionReason, transaction.storefront, transaction.storefrontId, transaction.price,
                transaction.currency, transaction.appTransactionId,
            ]
            #expect(required.allSatisfy { $0 != nil })
            #expect(transaction.transactionId?.count == 16)

            let renewalInfo = try #require(notification.renewalInfo)
            let renewalInfoJWS = try #require(notification.renewalInfoJWS)
            try verifier.verify(renewalInfoJWS, at: Self.date(try #require(renewalInfo.signedDate)))
            let renewalFields: [Any?] = [
                renewalInfo.originalTransactionId, renewalInfo.autoRenewStatus, renewalInfo.autoRenewProductId,
                renewalInfo.productId, renewalInfo.renewalDate, renewalInfo.recentSubscriptionStartDate,
                renewalInfo.signedDate, renewalInfo.environment, renewalInfo.appTransactionId,
            ]
            #expect(renewalFields.allSatisfy { $0 != nil })
            #expect(renewalInfo.originalTransactionId == transaction.originalTransactionId)
            // renewalPrice and currency go with auto-renew on.
            #expect((renewalInfo.renewalPrice != nil) == (renewalInfo.autoRenewStatus == .known(.on)))
        }
    }

    @Test func unsignedHistoriesGiveTheEventsOfTheExport() throws {
        let fixture = try Fixtures.small.get()
        var decoded: [String: NotificationEvent] = [:]
        for notification in fixture.notifications {
            let event = NotificationEvent(notification)
            decoded[event.notificationUUID] = event
        }
        var unsigned: [String: NotificationEvent] = [:]
        for index in 0..<fixture.options.subscribers {
            for notification in SubscriberHistory(index: index, options: fixture.options).notifications.joined() {
                let event = NotificationEvent(notification, bundleId: fixture.options.bundleID)
                unsigned[event.notificationUUID] = event
            }
        }
        #expect(unsigned.count == fixture.summary.notifications)
        #expect(unsigned == decoded)
    }

    @Test func historyPagesCarryTheSameNotifications() throws {
        let lines = try Fixtures.small.get()
        let history = try ExportFixture(Fixtures.smallOptions, format: .history, fileName: "history.json.gz")
        #expect(history.output.isCompressed)
        #expect(history.output.truthPath.hasSuffix("history.truth.csv"))
        #expect(try history.signedPayloads() == lines.signedPayloads())
        #expect(try history.truthText() == lines.truthText())

        let pages = try history.lines().map { try NotificationDecoder.decodeHistoryPage(from: Data($0.utf8)) }
        #expect(pages.count > 1)
        for (index, page) in pages.enumerated() {
            let items = try #require(page.notificationHistory)
            #expect((1...ExportFormat.pageSize).contains(items.count))
            let isLast = index == pages.count - 1
            #expect(page.hasMore == !isLast)
            #expect((page.paginationToken != nil) == !isLast)
            for item in items {
                let attempts = try #require(item.sendAttempts)
                #expect((1...6).contains(attempts.count))
            }
        }
    }

    @Test func gzipMembersDecompressToThePlainExport() throws {
        let plain = try Fixtures.small.get()
        let compressed = try ExportFixture(Fixtures.smallOptions, fileName: "export.jsonl.gz")
        let raw = try Data(contentsOf: URL(fileURLWithPath: compressed.output.exportPath))
        #expect(raw.prefix(2) == Data([0x1F, 0x8B]))
        #expect(raw.count < (try plain.exportBytes()).count / 2)
        #expect(try compressed.exportBytes() == plain.exportBytes())
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
