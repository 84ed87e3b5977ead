/// Percentile bootstrap intervals (METRICS.md v2.2, "A grace change, evaluated"): an estimate recomputed on
/// resamples drawn with replacement, its 95 % interval read off the sorted recomputed values.
package enum Bootstrap {
    /// The quantile `probability` (0…1) of `sorted` (ascending, not empty) by linear interpolation between the
    /// order statistics at (n − 1) × probability: Hyndman and Fan's type 7, the default of R and NumPy.
    package static func quantile(_ sorted: [Double], _ probability: Double) -> Double {
        let position = Double(sorted.count - 1) * probability
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// The 95 % percentile interval of the recomputed `values`: their 2.5 % and 97.5 % quantiles
    /// (``quantile(_:_:)``); nil when there are none or one is not finite.
    package static func percentileInterval(_ values: [Double]) -> ConfidenceInterval? {
        guard !values.isEmpty, values.allSatisfy(\.isFinite) else { return nil }
        let sorted = values.sorted()
        return ConfidenceInterval(low: quantile(sorted, 0.025), high: quantile(sorted, 0.975))
    }
}
