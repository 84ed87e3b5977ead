import Foundation

/// A 95 % confidence interval `[low, high]` for an estimated rate or ratio.
///
/// Build one with ``wilson(successes:trials:)`` for a proportion, or ``logNormal(estimate:standardErrorOfLog:)`` for a
/// ratio whose logarithm is roughly normal (METRICS.md, "Wilson interval" and "Message days against their
/// neighbours").
package struct ConfidenceInterval: Hashable, Sendable {
    /// The standard normal quantile for 95 %: z = 1.959963984540054 (METRICS.md).
    package static let z = 1.959963984540054

    package var low: Double
    package var high: Double

    package init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// exp(ln(estimate) ± z·se) for an estimate whose logarithm has standard error `standardErrorOfLog`.
    ///
    /// - Returns: nil when `estimate` is not a positive finite number or the standard error is not finite.
    package static func logNormal(estimate: Double, standardErrorOfLog: Double) -> ConfidenceInterval? {
        guard estimate > 0, estimate.isFinite, standardErrorOfLog.isFinite, standardErrorOfLog >= 0 else {
            return nil
        }
        let logEstimate = log(estimate)
        let margin = z * standardErrorOfLog
        return ConfidenceInterval(low: exp(logEstimate - margin), high: exp(logEstimate + margin))
    }
}
