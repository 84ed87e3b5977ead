/// The ratio of one event rate to another with its 95 % interval: over one stratum, or pooled over strata by
/// Mantel–Haenszel with the Greenland–Robins variance (METRICS.md, "Message days against their neighbours").
package struct RateRatio: Hashable, Sendable {
    /// The rate compared, summed over the strata (R_M, T_M for message days).
    package var compared: EventRate
    /// The reference rate, summed over the strata (R_C, T_C for the neighbouring days).
    package var reference: EventRate
    /// The estimated ratio; nil when undefined (see the initializers).
    package var ratio: Double?
    /// The 95 % interval of `ratio`; nil when either side has no event.
    package var interval: ConfidenceInterval?

    /// The ratio of two rates, (R₁/T₁) / (R₀/T₀), with interval exp(ln ratio ± z·√(1/R₁ + 1/R₀)): the
    /// Mantel–Haenszel ratio of a single stratum, to which both estimates reduce.
    ///
    /// The ratio is nil when either rate is undefined (T = 0) or the reference rate is 0, and 0 when only R₁ is 0;
    /// the interval is nil when R₁ or R₀ is 0.
    /// - Parameters:
    ///   - compared: R₁ events in T₁.
    ///   - reference: R₀ events in T₀.
    package init(_ compared: EventRate, to reference: EventRate) {
        self.init(mantelHaenszel: [(compared, reference)])
    }

    /// The Mantel–Haenszel rate ratio over strata b, with T_b = T₁b + T₀b:
    /// RR = Σ_b (R₁b·T₀b/T_b) / Σ_b (R₀b·T₁b/T_b), and the Greenland–Robins variance
    /// Var(ln RR) = Σ_b (T₁b·T₀b·(R₁b+R₀b)/T_b²) / [Σ_b (R₁b·T₀b/T_b) · Σ_b (R₀b·T₁b/T_b)];
    /// interval exp(ln RR ± z·√Var).
    ///
    /// A stratum without time at risk adds nothing. The ratio is nil when its denominator is 0, and 0 when only
    /// its numerator is; the interval is nil unless both are above 0. `compared` and `reference` are the plain
    /// sums over the strata.
    /// - Parameter strata: each stratum's compared and reference counts.
    package init(mantelHaenszel strata: [(compared: EventRate, reference: EventRate)]) {
        var compared = EventRate()
        var reference = EventRate()
        var numerator = 0.0
        var denominator = 0.0
        var varianceNumerator = 0.0
        for stratum in strata {
            compared.add(stratum.compared)
            reference.add(stratum.reference)
            let total = Double(stratum.compared.atRisk) + Double(stratum.reference.atRisk)
            guard total > 0 else { continue }
            let comparedTime = Double(stratum.compared.atRisk)
            let referenceTime = Double(stratum.reference.atRisk)
            numerator += Double(stratum.compared.events) * referenceTime / total
            denominator += Double(stratum.reference.events) * comparedTime / total
            varianceNumerator +=
                comparedTime * referenceTime * Double(stratum.compared.events + stratum.reference.events)
                / (total * total)
        }
        self.compared = compared
        self.reference = reference
        guard denominator > 0 else {
            ratio = nil
            interval = nil
            return
        }
        let estimate = numerator / denominator
        ratio = estimate
        interval =
            numerator > 0
            ? ConfidenceInterval.logNormal(
                estimate: estimate, standardErrorOfLog: (varianceNumerator / (numerator * denominator)).squareRoot())
            : nil
    }
}
