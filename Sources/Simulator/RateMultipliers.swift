/// How much more often (above 1) or less often (below 1) than the base rates something happens to one kind of
/// subscription: a product, a storefront, or the first charge after a free trial. The multipliers of an episode
/// multiply each other.
package struct RateMultipliers: Hashable, Sendable {
    /// Multiplies the chance that a renewal charge fails (``SimulationOptions/failureRate``).
    package var failure: Double
    /// Multiplies each day's chance of recovery during billing retry (``RetryModel/recovery``).
    package var recovery: Double

    package init(failure: Double, recovery: Double) {
        self.failure = failure
        self.recovery = recovery
    }

    /// No change.
    package static let one = RateMultipliers(failure: 1, recovery: 1)

    /// Both multipliers of `self` and `other`.
    package func combined(with other: RateMultipliers) -> RateMultipliers {
        RateMultipliers(failure: failure * other.failure, recovery: recovery * other.recovery)
    }
}
