import Foundation

extension ConfidenceInterval {
    /// The Wilson score interval of a proportion: x successes in n trials, p = x/n,
    /// low/high = (p + z²/(2n) ∓ z·√(p(1−p)/n + z²/(4n²))) / (1 + z²/n) (METRICS.md, "Wilson interval").
    ///
    /// Unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at x = 0 or x = n.
    /// - Parameters:
    ///   - successes: x, between 0 and `trials`.
    ///   - trials: n.
    /// - Returns: nil when n = 0 (no proportion to estimate) or x is outside 0…n.
    package static func wilson(successes: Int, trials: Int) -> ConfidenceInterval? {
        guard trials > 0, successes >= 0, successes <= trials else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let zSquared = z * z
        let center = p + zSquared / (2 * n)
        let margin = z * (p * (1 - p) / n + zSquared / (4 * n * n)).squareRoot()
        let scale = 1 + zSquared / n
        // At x = 0 (x = n) the lower (upper) bound is 0 (1) exactly; the formula gives it up to rounding.
        let low = successes == 0 ? 0 : (center - margin) / scale
        let high = successes == trials ? 1 : (center + margin) / scale
        return ConfidenceInterval(low: low, high: high)
    }
}
