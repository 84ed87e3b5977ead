import Analysis
import Simulator
import Testing

/// The report's methods against truths the simulator plants: the analysis must find a planted effect inside its
/// interval, and find nothing when nothing was planted. Everything runs through the episode builder and the
/// report's own analyzers, on exports simulated without signing.
@Suite struct PlantedEffectTests {
    static let month = 30 * Milliseconds.day

    /// A realistic app (the simulator's default hazard shape, segment multipliers, 16-day grace, Apple's quirks)
    /// with many billing failures, so that bands 2–4 hold many recoveries. No new purchases during retry: they
    /// count as recoveries but the messages do not move them, so they would dilute what the ratio estimates.
    static func realistic(messageEffect: Double) -> SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 8_000
        options.seed = 7_001
        options.months = 9
        options.failureRate = 0.5
        options.messageEffect = messageEffect
        options.newPurchaseRate = 0
        options.familyRate = 0
        options.sandboxRate = 0
        return options
    }

    static let simulations = [1.0, 2.0].map { effect in (effect, UnsignedSimulation(realistic(messageEffect: effect))) }

    /// The `(all)` row of `message_bands.csv`: every message day of bands 2–4 against its own two neighbours,
    /// pooled by Mantel–Haenszel.
    @Test(arguments: [1.0, 2.0])
    func pooledHazardRatioFindsThePlantedMessageEffect(effect: Double) throws {
        let simulation = try #require(Self.simulations.first { $0.0 == effect }?.1)
        let dataset = simulation.dataset()
        let bands = MessageBands.figures(episodes: dataset.episodes, asOf: dataset.asOf, schedule: .standard)
        // The weekly product's grace period is capped at 6 days, so its grace end falls on day 7, a message day:
        // those episodes leave the whole stratum {6, 7, 8}, where the life table leaves them out of day 7 only.
        let lifeTable = RetryDays.lifeTable(episodes: dataset.episodes, asOf: dataset.asOf)
        let stratum7 = try #require(bands[1].dayComparison?.strata.first)
        #expect(stratum7.messageDay == 7)
        #expect(stratum7.messageDayCounts.atRisk <= lifeTable[6].counts.atRisk)
        #expect(stratum7.otherDayCounts.atRisk < lifeTable[5].counts.atRisk + lifeTable[7].counts.atRisk)
        let pooled = try #require(MessageBands.pooled(bands))
        let ratio = try #require(pooled.ratio)
        let interval = try #require(pooled.interval)
        #expect(
            interval.low <= effect && effect <= interval.high, "pooled \(ratio) in \(interval.low)…\(interval.high)")
        // Each run tells its truth from the other's: with nothing planted the interval leaves out the planted
        // effect of 2, and with 2 planted it leaves out 1 (no effect).
        let other = effect == 1 ? 2.0 : 1.0
        #expect(
            !(interval.low...interval.high).contains(other),
            "planted \(effect), the interval \(interval.low)…\(interval.high) must leave out \(other)")
        print("planted message effect \(effect): pooled hazard ratio \(ratio) [\(interval.low), \(interval.high)]")
        // Narrow enough to mean something.
        #expect(interval.high / interval.low < 1.5, "\(interval.low)…\(interval.high)")
    }

    /// The chance that an episode ends recovered (by retry or by a new purchase), worked out from the simulator's
    /// daily chances: Σ_d S(d − 1)·(recovery_d + new purchase_d), S the chance of being still in retry.
    static func recoveryProbability(_ model: RetryModel) -> Double {
        var stillInRetry = 1.0
        var recovered = 0.0
        for index in 0..<RetryModel.days {
            let recovery = model.recoveryChance(day: index + 1, multiplier: 1, graceEndDay: nil)
            let leaving = min(1, recovery + model.cancel[index] + model.other[index] + model.newPurchase[index])
            recovered += stillInRetry * min(leaving, recovery + model.newPurchase[index])
            stillInRetry *= 1 - leaving
        }
        return recovered
    }

    @Test func matureRecoveryRateContainsThePlantedProbabilityWhereTheEndedRateDoesNot() throws {
        var options = SimulationOptions()
        options.subscribers = 15_000
        options.seed = 7_002
        options.months = 10
        options.failureRate = 0.5
        options.uniformRates = true
        options.grace = .none
        options.familyRate = 0
        options.sandboxRate = 0
        options.lateFailureNoticeRate = 0
        options.staleFailureNoticeRate = 0
        options.missingExpiryRate = 0
        let planted = Self.recoveryProbability(RetryModel(options: options))
        #expect((0.4...0.7).contains(planted), "\(planted)")

        // As of three months before the end of the history: the last months' episodes are still young.
        let asOf = options.end - 3 * Self.month
        let dataset = UnsignedSimulation(options).dataset(asOf: asOf)
        var mature = MatureCounts()
        var ended = OutcomeCounts()
        for episode in dataset.episodes {
            mature.add(episode, asOf: asOf)
            ended.add(episode)
        }
        let interval = try #require(mature.recoveryRateInterval)
        #expect(mature.episodes > 5_000)
        #expect(interval.low <= planted && planted <= interval.high, "\(planted) in \(interval.low)…\(interval.high)")
        // The v1 headline, recovered over ended episodes, counts the young episodes' quick recoveries before their
        // slow expiries: it reads high, outside the mature rate's interval.
        let endedRate = try #require(ended.recoveryRate)
        #expect(endedRate > interval.high, "ended-episode rate \(endedRate), planted \(planted)")
        print(
            "planted recovery \(planted); mature \(mature.recoveryRate ?? -1) [\(interval.low), \(interval.high)] "
                + "of \(mature.episodes); ended-episode rate \(endedRate)")
    }
}
