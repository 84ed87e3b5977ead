extension EpisodeStream {
    /// The per-subscription results of a sequence of events grouped by subscription, built lazily.
    package struct Results<Events: IteratorProtocol>: Sequence, IteratorProtocol
    where Events.Element == NotificationEvent {
        private var events: Events
        private var stream: EpisodeStream
        private var isFinished = false

        init(events: Events, builder: EpisodeBuilder) {
            self.events = events
            self.stream = EpisodeStream(builder: builder)
        }

        package mutating func next() -> SubscriptionEpisodes? {
            while !isFinished {
                guard let event = events.next() else {
                    isFinished = true
                    return stream.finish()
                }
                if let result = stream.add(event) { return result }
            }
            return nil
        }
    }
}
