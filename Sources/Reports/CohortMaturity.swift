import Analysis

/// Whether a cohort is old enough for its recovery rate to be judged.
///
/// The App Store retries a failed renewal for up to 60 days. A cohort is too young to judge while its last
/// possible episode start (the end of the cohort's month or week) is less than 60 days before the as-of time:
/// its latest episodes may still be in retry, and the episodes that end early (recovered quickly, cancelled)
/// are over-represented among those already decided, so its rate can still move a lot. See
/// docs/METRICS-NOTES.md, "Cohorts too young to judge".
package enum CohortMaturity {
    /// How long the App Store retries a failed renewal.
    package static let retryWindow: Int64 = 60 * Milliseconds.day

    /// True while `asOf − cohort.end < 60 days`.
    package static func isTooYoung(_ cohort: CalendarPeriod, asOf: Int64) -> Bool {
        Milliseconds.elapsed(from: cohort.end, to: asOf) < retryWindow
    }

    /// The first as-of time at which `cohort` can be judged: the end of the cohort plus 60 days.
    package static func judgeableFrom(_ cohort: CalendarPeriod) -> Int64 {
        let (sum, overflow) = cohort.end.addingReportingOverflow(retryWindow)
        return overflow ? Int64.max : sum
    }
}
