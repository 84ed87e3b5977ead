extension ConfidenceInterval {
    /// Newcombe's hybrid score interval (his method 10) of the difference p₁ − p₂ of two independent proportions, from
    /// their Wilson intervals [l₁, u₁] and [l₂, u₂]: from (p₁ − p₂) − √((p₁ − l₁)² + (u₂ − p₂)²) to
    /// (p₁ − p₂) + √((u₁ − p₁)² + (p₂ − l₂)²) (METRICS.md v2.2, "Billing messages the app showed").
    /// - Returns: nil when either side has no trial.
    package static func newcombe(
        successes first: Int, trials firstTrials: Int, successes second: Int, trials secondTrials: Int
    ) -> ConfidenceInterval? {
        guard let one = wilson(successes: first, trials: firstTrials),
            let two = wilson(successes: second, trials: secondTrials)
        else { return nil }
        let p1 = Double(first) / Double(firstTrials)
        let p2 = Double(second) / Double(secondTrials)
        let difference = p1 - p2
        let below = ((p1 - one.low) * (p1 - one.low) + (two.high - p2) * (two.high - p2)).squareRoot()
        let above = ((one.high - p1) * (one.high - p1) + (p2 - two.low) * (p2 - two.low)).squareRoot()
        return ConfidenceInterval(low: difference - below, high: difference + above)
    }
}
