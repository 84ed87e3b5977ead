extension Episode {
    /// Whether the episode counts in a `save_rate` denominator: a grace period whose end is known and whose result
    /// is known by `asOf` (the episode closed, or its grace ended by then).
    ///
    /// A grace period whose end stays unknown counts in no denominator, closed or not: whether a recovery came
    /// inside it cannot be shown (METRICS.md, "Grace without a date").
    package func isInSaveRate(asOf: Int64) -> Bool {
        hasGrace && !isGraceEndUnknown && isGraceDecided(asOf: asOf)
    }
}
