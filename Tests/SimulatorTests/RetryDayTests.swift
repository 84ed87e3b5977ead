import Analysis
import Foundation
import Simulator
import Testing

/// The daily recovery process shows in the ground truth the way METRICS.md's life table reads it: recoveries on
/// message days against their neighbours, and on the day the grace period ends.
@Suite struct RetryDayTests {
    static let day: Int64 = 86_400_000

    /// Per day 1…60: episodes at risk and recoveries, as `retry_days.csv` counts them (METRICS.md, "Retry days").
    struct LifeTable {
        var atRisk = Array(repeating: 0, count: 61)
        var recoveries = Array(repeating: 0, count: 61)

        /// - Parameter skipsGraceEndDay: leave out each episode's day holding its grace end, as the contract does.
        init(_ episodes: [GroundTruthEpisode], asOf: Int64, skipsGraceEndDay: Bool = true) {
            for episode in episodes {
                let duration = max(0, (episode.end ?? asOf) - episode.start)
                let graceEndDay = episode.graceEnd.map { Int(($0 - episode.start) / RetryDayTests.day) + 1 }
                let lastDay: Int
                if episode.outcome == .open {
                    // At risk on the days d with duration > (d − 1) · 24 h.
                    lastDay = Int((duration - 1) / RetryDayTests.day) + 1
                    if duration == 0 { continue }
                } else {
                    lastDay = Int(duration / RetryDayTests.day) + 1
                }
                for day in 1...min(60, lastDay) where !(skipsGraceEndDay && day == graceEndDay) {
                    atRisk[day] += 1
                    if episode.outcome == .recovered, day == lastDay { recoveries[day] += 1 }
                }
            }
        }

        func hazard(_ days: [Int]) -> (recoveries: Int, atRisk: Int) {
            (days.reduce(0) { $0 + recoveries[$1] }, days.reduce(0) { $0 + atRisk[$1] })
        }

        /// The Mantel–Haenszel rate ratio of message days against their neighbours over bands 2–4.
        func messageDayRatio() -> Double {
            var numerator = 0.0
            var denominator = 0.0
            for (message, other) in RetryDayTests.comparisonDays() {
                let (rm, tm) = hazard(message)
                let (rc, tc) = hazard(other)
                let total = Double(tm + tc)
                numerator += Double(rm) * Double(tc) / total
                denominator += Double(rc) * Double(tm) / total
            }
            return numerator / denominator
        }
    }

    /// Per band of the standard schedule that has days without a message: its message days whose two neighbours
    /// lie in the band and hold no message, and those neighbours.
    static func comparisonDays() -> [(message: [Int], other: [Int])] {
        MessageSchedule.standard.bands.compactMap { band in
            let messageDays = Set(band.messageOffsets.map { Int($0 / day) + 1 })
            let days = band.firstDay...band.lastDay
            let message = messageDays.sorted().filter { d in
                days.contains(d - 1) && days.contains(d + 1) && !messageDays.contains(d - 1)
                    && !messageDays.contains(d + 1)
            }
            guard !message.isEmpty else { return nil }
            return (message, Array(Set(message.flatMap { [$0 - 1, $0 + 1] })).sorted())
        }
    }

    /// Messages that change nothing; shared by the tests that need no effect.
    static let withoutMessageEffect = Result { UnsignedSimulation(try options(messageEffect: 1)) }

    /// Many episodes, with every grace length. The recovery hazard is flat, so that comparing a day with its
    /// neighbours needs no allowance for a declining baseline, and high, for many recoveries in bands 2–4.
    static func options(messageEffect: Double) throws -> SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 12_000
        options.seed = 2024
        options.months = 6
        options.grace = .mixed
        options.failureRate = 1
        options.recoveryHazard = try RecoveryHazard(parsing: "1 1.0\n")
        options.recoveryRate = 0.9
        options.familyRate = 0
        options.sandboxRate = 0
        options.messageEffect = messageEffect
        return options
    }

    @Test func comparisonDaysAreThoseOfTheContract() {
        let days = Self.comparisonDays()
        #expect(days.map(\.message) == [[7, 10, 13], [21, 25, 29], [36, 41, 46, 51, 56]])
        #expect(days[0].other == [6, 8, 9, 11, 12, 14])
        #expect(days[1].other == [20, 22, 24, 26, 28, 30])
        #expect(days[2].other == [35, 37, 40, 42, 45, 47, 50, 52, 55, 57])
        let model = RetryModel(options: SimulationOptions())
        #expect(model.messageDays == [4, 7, 10, 13, 16, 17, 21, 25, 29, 31, 36, 41, 46, 51, 56])
    }

    @Test(arguments: [1.0, 2.0])
    func messageDaysRecoverAsMuchMoreAsTheEffectSays(effect: Double) throws {
        let simulation =
            effect == 1
            ? try Self.withoutMessageEffect.get() : UnsignedSimulation(try Self.options(messageEffect: effect))
        let options = simulation.options
        let episodes = simulation.productionTruth
        #expect(episodes.count > 10_000)
        let table = LifeTable(episodes, asOf: options.end)
        let ratio = table.messageDayRatio()
        #expect(abs(ratio / effect - 1) < 0.1, "hazard ratio \(ratio) for an effect of \(effect)")
    }

    @Test func theGraceEndDayDrivesRecoveries() throws {
        let simulation = try Self.withoutMessageEffect.get()
        let options = simulation.options
        let episodes = simulation.productionTruth
        // Every grace episode on its own grace end day, against the days either side.
        var onDay = (recoveries: 0, atRisk: 0)
        var around = (recoveries: 0, atRisk: 0)
        for episode in episodes {
            guard let graceEnd = episode.graceEnd else { continue }
            let single = LifeTable([episode], asOf: options.end, skipsGraceEndDay: false)
            let graceEndDay = Int((graceEnd - episode.start) / Self.day) + 1
            onDay.recoveries += single.recoveries[graceEndDay]
            onDay.atRisk += single.atRisk[graceEndDay]
            let (recoveries, atRisk) = single.hazard([graceEndDay - 1, graceEndDay + 1])
            around.recoveries += recoveries
            around.atRisk += atRisk
        }
        let onDayHazard = Double(onDay.recoveries) / Double(onDay.atRisk)
        let ratio = onDayHazard / (Double(around.recoveries) / Double(around.atRisk))
        #expect(abs(ratio / options.graceEndEffect - 1) < 0.2, "grace end day hazard ratio \(ratio)")

        // Days 4, 7 and 29 hold both a message and the end of a 3-, 6- or 28-day grace period: left in, they make
        // messages look effective when they are not.
        let biased = LifeTable(episodes, asOf: options.end, skipsGraceEndDay: false).messageDayRatio()
        let fair = LifeTable(episodes, asOf: options.end).messageDayRatio()
        #expect(biased > fair * 1.05, "with the grace end day \(biased), without \(fair)")
    }
}
