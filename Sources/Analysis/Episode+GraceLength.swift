extension Episode {
    /// The configured grace period in whole days: round((grace_end − start) / 24 h), halves away from zero, so
    /// the App Store's settings read 3, 16 or 28. Nil without a grace period or with an unknown `graceEnd`.
    package var graceDays: Int? {
        guard hasGrace, let graceEnd else { return nil }
        let (difference, overflow) = graceEnd.subtractingReportingOverflow(start)
        guard !overflow else { return nil }
        let (days, rest) = difference.quotientAndRemainder(dividingBy: Milliseconds.day)
        let half = Milliseconds.day / 2
        if rest >= half { return Int(days + 1) }
        if rest <= -half { return Int(days - 1) }
        return Int(days)
    }
}
