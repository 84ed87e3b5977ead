import Analysis

/// Which episodes the notifications leave uncertain, by the episode rules themselves (METRICS.md, "Billing-issue
/// episodes" and "Commitment plans"), as of the time a report takes: the latest `signedDate` loaded, over all
/// environments.
///
/// An episode is uncertain when, finished as of ``asOf`` (``Episode/closeRetryWindow(asOf:)``), it
/// - ended by inference: no closing notification came within its retry window, W = 60 days or 90 under a commitment,
///   so it is `expired` from its maturity at t0 + (W + 1) days (``SubscriptionCheck/Reason/inferredExpiry``);
/// - is open, and its subscription has had no notification for ``staleDays`` days counted back from ``asOf``
///   (``SubscriptionCheck/Reason/openWithoutNews``);
/// - is open in a grace period whose end no notification dated (``SubscriptionCheck/Reason/graceEndUnknown``).
package struct UncertainEpisodes: Sendable, Equatable {
    /// Unix ms: the latest `signedDate` loaded, over all environments, as reports take it.
    package var asOf: Int64
    /// Days without a notification after which an open episode is uncertain.
    package var staleDays: Int

    package init(asOf: Int64, staleDays: Int) {
        self.asOf = asOf
        self.staleDays = staleDays
    }

    /// Why the notifications leave `episode` uncertain as of ``asOf``; nil when they do not.
    /// - Parameters:
    ///   - episode: an episode as stored or as built, finished here as of ``asOf``.
    ///   - lastNews: the latest `signedDate` (Unix ms) of any notification of the episode's subscription; nil when
    ///     none is known, which makes no episode stale.
    package func reason(of episode: Episode, lastNews: Int64?) -> SubscriptionCheck.Reason? {
        var finished = episode
        finished.closeRetryWindow(asOf: asOf)
        switch finished.outcome {
        case .expired where finished.endInferred:
            return .inferredExpiry
        case .open:
            if let lastNews, isStale(lastNews) { return .openWithoutNews }
            // A grace period no notification dated: the one the usual grace lengths date (or leave unknown).
            if GraceLengths.datesGraceEnd(of: finished) { return .graceEndUnknown }
            return nil
        default:
            return nil
        }
    }

    /// Whether news last heard at `lastNews` is ``staleDays`` days old or older at ``asOf``.
    private func isStale(_ lastNews: Int64) -> Bool {
        let (days, overflow) = Int64(staleDays).multipliedReportingOverflow(by: Milliseconds.day)
        guard !overflow else { return false }
        return Milliseconds.elapsed(from: lastNews, to: asOf) >= days
    }
}
