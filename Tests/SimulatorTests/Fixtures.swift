import Foundation
import Simulator

/// Exports shared by several tests, each simulated once per test run.
enum Fixtures {
    /// A small everyday export: the default mix.
    static let small = Result { try ExportFixture(smallOptions) }

    static var smallOptions: SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 40
        options.seed = 7
        options.months = 4
        options.failureRate = 0.2
        return options
    }

    /// Many episodes of every kind, Sandbox and family traffic, resends and late deliveries, each of Apple's quirks:
    /// for comparing the ground truth with the episode builder.
    static let varied = Result { try ExportFixture(variedOptions) }

    static var variedOptions: SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 300
        options.seed = 20_251_121
        options.start = 1_704_067_200_000  // 2024-01-01
        options.months = 8
        options.grace = .mixed
        options.failureRate = 0.25
        options.otherRate = 0.06
        options.refundRate = 0.02
        options.resubscribeRate = 0.4
        options.sandboxRate = 0.15
        options.familyRate = 0.15
        options.duplicateRate = 0.05
        options.outOfOrderRate = 0.05
        options.testEvery = 50
        options.newPurchaseRate = 0.05
        options.lateFailureNoticeRate = 0.15
        options.staleFailureNoticeRate = 0.1
        options.undatedGraceRate = 0.1
        options.missingExpiryRate = 0.2
        return options
    }

    /// Every subscriber with a 16-day grace period.
    static let grace16 = Result { try ExportFixture(grace16Options) }

    static var grace16Options: SimulationOptions {
        var options = SimulationOptions()
        options.subscribers = 120
        options.seed = 16
        options.months = 6
        options.grace = .days(16)
        options.failureRate = 0.3
        options.duplicateRate = 0.05
        options.outOfOrderRate = 0.05
        return options
    }
}
