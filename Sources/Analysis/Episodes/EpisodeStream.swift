/// Builds episodes from notifications that arrive grouped by subscription, one subscription at a time.
///
/// Feed events in consecutive runs of the same `originalTransactionId` (for example from
/// `ORDER BY original_transaction_id, signed_date, notification_uuid`); the order inside a run does not matter.
/// Only the current run is held in memory. Notifications without an `originalTransactionId` form their own run
/// (stored with original_transaction_id '', they sort together), which only feeds the data-quality counts.
///
/// - Important: a subscription split over two runs yields two results and its episodes would be wrong.
package struct EpisodeStream: Sendable {
    package let builder: EpisodeBuilder
    private var run: [NotificationEvent] = []
    /// The `originalTransactionId` of `run`, kept apart so that comparing does not copy an event.
    private var runSubscription: String?
    private var seen = Set<String>()

    package init(builder: EpisodeBuilder) {
        self.builder = builder
    }

    /// Takes the next event; returns the finished previous subscription when this event starts a new one.
    package mutating func add(_ event: consuming NotificationEvent) -> SubscriptionEpisodes? {
        var finished: SubscriptionEpisodes?
        if !run.isEmpty, runSubscription != event.originalTransactionId {
            finished = flush()
        }
        if run.isEmpty { runSubscription = event.originalTransactionId }
        run.append(event)
        return finished
    }

    /// Ends the input: returns the last subscription, if any events are pending.
    package mutating func finish() -> SubscriptionEpisodes? {
        run.isEmpty ? nil : flush()
    }

    private mutating func flush() -> SubscriptionEpisodes {
        let result = builder.build(sorting: &run, seen: &seen)
        run.removeAll(keepingCapacity: true)
        return result
    }
}
