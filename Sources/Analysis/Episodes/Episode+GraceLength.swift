extension Episode {
    /// The grace period in whole days, by the one rounding rule of grace lengths (``GraceLengths/days(from:to:)``:
    /// ⌊(grace_end − t0) / 24 h + ½⌋), so the App Store's settings read 3, 16 or 28. Nil without a grace period or
    /// with an unknown `graceEnd`. The analysis stores it (`billing_episodes.grace_days`), which the `episodes` view
    /// and the usual grace lengths read.
    package var graceDays: Int? {
        guard hasGrace, let graceEnd else { return nil }
        return GraceLengths.days(from: start, to: graceEnd)
    }
}
