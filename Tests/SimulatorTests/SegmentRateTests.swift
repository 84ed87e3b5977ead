import Analysis
import NotificationTypes
import Simulator
import Testing

/// Products, storefronts and the first charge after a free trial fail and recover at their own rates.
@Suite struct SegmentRateTests {
    static let simulation = UnsignedSimulation(options)

    static var options: SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 6000
        options.seed = 31
        options.months = 12
        options.failureRate = 0.2
        options.familyRate = 0
        options.sandboxRate = 0
        options.trialRate = 0.5
        return options
    }

    /// Share of charges that failed: episodes against episodes plus plain renewals, per key of the charge.
    private static func failureShares(
        _ simulation: UnsignedSimulation,
        key: (GroundTruthEpisode) -> String,
        renewalKey: (NotificationEvent) -> String
    ) -> [String: Double] {
        var failures: [String: Int] = [:]
        for episode in simulation.productionTruth { failures[key(episode), default: 0] += 1 }
        var renewals: [String: Int] = [:]
        for event in simulation.events where event.notificationType == .didRenew && event.subtype == nil {
            renewals[renewalKey(event), default: 0] += 1
        }
        return Set(failures.keys).union(renewals.keys).reduce(into: [:]) { shares, key in
            let failed = failures[key] ?? 0
            shares[key] = Double(failed) / Double(failed + (renewals[key] ?? 0))
        }
    }

    /// Share of ended episodes that recovered, per key.
    private static func recoveryShares(
        _ episodes: [GroundTruthEpisode],
        key: (GroundTruthEpisode) -> String
    ) -> [String: Double] {
        var ended: [String: Int] = [:]
        var recovered: [String: Int] = [:]
        for episode in episodes where episode.outcome != .open {
            ended[key(episode), default: 0] += 1
            if episode.outcome == .recovered { recovered[key(episode), default: 0] += 1 }
        }
        return ended.reduce(into: [:]) { shares, entry in
            shares[entry.key] = Double(recovered[entry.key] ?? 0) / Double(entry.value)
        }
    }

    @Test func productsFailAndRecoverAtTheirOwnRates() throws {
        let paid = Self.simulation.productionTruth.filter { !$0.isTrialConversion }
        let recovery = Self.recoveryShares(paid, key: \.productId)
        let weekly = try #require(recovery["pro.weekly"])
        let monthly = try #require(recovery["pro.monthly"])
        #expect(weekly < monthly - 0.05)

        let failure = Self.failureShares(
            Self.simulation, key: { $0.isTrialConversion ? "trial" : $0.productId },
            renewalKey: { $0.productId ?? "" }
        )
        let weeklyFailure = try #require(failure["pro.weekly"])
        let monthlyFailure = try #require(failure["pro.monthly"])
        #expect(weeklyFailure > monthlyFailure * 1.1)
    }

    @Test func firstChargesAfterATrialRecoverLess() throws {
        let episodes = Self.simulation.productionTruth.filter { $0.productId == "pro.monthly" }
        let recovery = Self.recoveryShares(episodes) { $0.isTrialConversion ? "trial" : "paid" }
        let trial = try #require(recovery["trial"])
        let paid = try #require(recovery["paid"])
        #expect(trial < paid - 0.1)
    }

    @Test func storefrontsFailAndRecoverAtTheirOwnRates() throws {
        let paid = Self.simulation.productionTruth.filter { !$0.isTrialConversion && $0.productId == "pro.monthly" }
        let recovery = Self.recoveryShares(paid, key: \.storefront)
        let brazil = try #require(recovery["BRA"])
        let usa = try #require(recovery["USA"])
        #expect(brazil < usa - 0.05)
        let failure = Self.failureShares(Self.simulation, key: \.storefront, renewalKey: { $0.storefront ?? "" })
        #expect(try #require(failure["BRA"]) > 1.4 * (try #require(failure["USA"])))
    }

    @Test func uniformRatesTreatEveryoneAlike() throws {
        var options = Self.options
        options.subscribers = 3000
        options.uniformRates = true
        let simulation = UnsignedSimulation(options)
        let failure = Self.failureShares(simulation, key: \.storefront, renewalKey: { $0.storefront ?? "" })
        let brazil = try #require(failure["BRA"])
        let usa = try #require(failure["USA"])
        #expect(abs(brazil - usa) < 0.05)
    }
}
