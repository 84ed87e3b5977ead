extension EpisodeBuilder {
    /// Episodes per subscription, built lazily from events grouped by subscription (see `EpisodeStream`).
    package func subscriptions<Events: Sequence>(
        groupedBySubscription events: Events
    ) -> EpisodeStream.Results<Events.Iterator> where Events.Element == NotificationEvent {
        EpisodeStream.Results(events: events.makeIterator(), builder: self)
    }

    /// Builds the finished dataset from events grouped by subscription, one subscription in memory at a time.
    package func dataset<Events: Sequence>(
        groupedBySubscription events: Events
    ) -> EpisodeDataset where Events.Element == NotificationEvent {
        var dataset = EpisodeDataset(asOf: options.asOf)
        for subscription in subscriptions(groupedBySubscription: events) {
            dataset.add(subscription)
        }
        dataset.finish()
        return dataset
    }

    /// Builds the finished dataset from events in any order, grouping them in memory (for small inputs and tests).
    package func dataset(_ events: [NotificationEvent]) -> EpisodeDataset {
        let grouped = Dictionary(grouping: events) { $0.originalTransactionId }
        // Subscriptions in UTF-8 byte order, the run without a subscription last: a deterministic episode order.
        let keys = grouped.keys.sorted { lhs, rhs in
            switch (lhs, rhs) {
            case (let lhs?, let rhs?): return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
            case (_?, nil): return true
            case (nil, _): return false
            }
        }
        var dataset = EpisodeDataset(asOf: options.asOf)
        for key in keys {
            dataset.add(build(grouped[key] ?? []))
        }
        dataset.finish()
        return dataset
    }
}
