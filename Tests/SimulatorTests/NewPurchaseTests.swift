import Analysis
import AppStoreNotifications
import NotificationTypes
import Simulator
import Testing

/// A new paid purchase during billing retry ends the episode as recovered by new purchase.
@Suite struct NewPurchaseTests {
    static func options(rate: Double) -> SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 1500
        options.seed = 5
        options.months = 8
        options.failureRate = 0.4
        options.newPurchaseRate = rate
        return options
    }

    @Test func upgradesAndPurchasesDuringRetryRecoverTheEpisode() throws {
        let simulation = UnsignedSimulation(Self.options(rate: 0.5))
        let truth = simulation.productionTruth
        let byPurchase = truth.filter { $0.recoveredBy == .newPurchase }
        #expect(byPurchase.count > 50)
        let closings = Dictionary(simulation.notifications.map { ($0.notificationUUID, $0) }) { first, _ in first }
        var kinds = Set<String>()
        for episode in byPurchase {
            #expect(episode.outcome == .recovered)
            let closing = try #require(closings[episode.closingNotificationUUID ?? ""])
            kinds.insert("\(closing.notificationType.rawValue)/\(closing.subtype?.rawValue ?? "")")
            let transaction = try #require(closing.transaction)
            #expect(try #require(transaction.purchaseDate) > episode.start)
            #expect(try #require(transaction.price) > 0)
            #expect(episode.end == transaction.purchaseDate)
        }
        #expect(kinds == ["DID_CHANGE_RENEWAL_PREF/UPGRADE", "SUBSCRIBED/RESUBSCRIBE"])
        expectBuilderMatchesTruth(simulation.dataset(), truth)
    }

    @Test func noneWithoutTheRate() {
        let simulation = UnsignedSimulation(Self.options(rate: 0))
        let truth = simulation.productionTruth
        #expect(truth.count > 200)
        #expect(!truth.contains { $0.recoveredBy == .newPurchase })
        #expect(!simulation.notifications.contains { $0.notificationType == .didChangeRenewalPref })
        expectBuilderMatchesTruth(simulation.dataset(), truth)
    }
}
