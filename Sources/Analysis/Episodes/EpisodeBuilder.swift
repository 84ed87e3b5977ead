/// Rebuilds the billing-retry episodes of subscriptions from their notifications.
///
/// The rules are those of METRICS.md, "Inputs that count" and "Billing-issue episodes"; where it is silent,
/// docs/METRICS-NOTES.md says what is done. In short, for one subscription:
///
/// 1. Order by `signedDate`, ties by `notificationUUID` in UTF-8 byte order.
/// 2. Drop notifications signed after the as-of time (counted nowhere).
/// 3. Filters, each counting what it drops, in this order: duplicate UUIDs (`duplicates_skipped`), other
///    environments (`outside_environment`), family-shared transactions (`family_shared_skipped`).
///    Notifications without an `originalTransactionId` stop here.
/// 4. Run the episode state machine over what is left (``SubscriptionState``), in the contract's rule order:
///    end an episode whose retry window is over, fill in the grace end, then open, mark stale, pair, close or
///    count an orphan, then update `paid_through`.
///
/// The builder's episodes say what the notifications say; what depends on the as-of time alone (an episode
/// past its retry window at the as-of time) and on all episodes together (grace lengths) is applied by
/// ``EpisodeDataset/finish()``.
package struct EpisodeBuilder: Sendable {
    /// What a report takes into account.
    package struct Options: Hashable, Sendable {
        /// The `data.environment` that counts.
        package var environment: String
        /// The report's as-of time (ms): later notifications are ignored, open episodes are censored here.
        package var asOf: Int64
        /// Renewals Apple's transaction history proved, by subscription (`originalTransactionId`); those purchased
        /// after the as-of time are ignored.
        package var provenRecoveries: [String: [ProvenRecovery]]

        package init(
            environment: String = "Production", asOf: Int64, provenRecoveries: [String: [ProvenRecovery]] = [:]
        ) {
            self.environment = environment
            self.asOf = asOf
            self.provenRecoveries = provenRecoveries
        }
    }

    package var options: Options

    package init(options: Options) {
        self.options = options
    }

    /// Builds the episodes of one subscription.
    ///
    /// - Parameter events: all notifications of one subscription (one `originalTransactionId`), in any order.
    ///   Notifications without an `originalTransactionId` are filtered and counted like the others, then ignored.
    /// - Returns: the subscription's episodes in order of start, its data-quality counts and its renewals per
    ///   month. Open episodes stay open here, whatever their age: see ``EpisodeDataset/finish()``.
    package func build(_ events: [NotificationEvent]) -> SubscriptionEpisodes {
        var events = events
        var seen = Set<String>()
        return build(sorting: &events, seen: &seen)
    }

    /// The processing order: `signedDate`, then `notificationUUID` compared as UTF-8 bytes.
    package static func precedes(_ lhs: NotificationEvent, _ rhs: NotificationEvent) -> Bool {
        if lhs.signedDate != rhs.signedDate { return lhs.signedDate < rhs.signedDate }
        return lhs.notificationUUID.utf8.lexicographicallyPrecedes(rhs.notificationUUID.utf8)
    }

    /// `build(_:)` on a buffer the caller owns; `seen` is scratch space reused between subscriptions.
    func build(sorting events: inout [NotificationEvent], seen: inout Set<String>) -> SubscriptionEpisodes {
        // Input from the database usually arrives in processing order already; checking is cheaper than sorting.
        if !events.withUnsafeBufferPointer(Self.isInProcessingOrder) { events.sort(by: Self.precedes) }
        seen.removeAll(keepingCapacity: true)
        seen.reserveCapacity(events.count)

        let subscription = events.withUnsafeBufferPointer(Self.subscription)
        var state = SubscriptionState(
            result: SubscriptionEpisodes(subscription: subscription),
            environment: options.environment,
            provenRecoveries: subscription.flatMap { options.provenRecoveries[$0] }?
                .filter { $0.purchaseDate <= options.asOf } ?? []
        )
        // Through the buffer rather than `for event in events` or the array's subscript, each of which would copy
        // every event (a retain and a release of each of its strings).
        events.withUnsafeBufferPointer { events in
            for index in events.indices {
                // Sorted by signedDate: everything from here on is after the as-of time.
                if events[index].signedDate > options.asOf { break }
                consider(events[index], state: &state, seen: &seen)
            }
        }
        return state.finish()
    }

    /// The first `originalTransactionId` present.
    private static func subscription(of events: UnsafeBufferPointer<NotificationEvent>) -> String? {
        for index in events.indices {
            if let subscription = events[index].originalTransactionId { return subscription }
        }
        return nil
    }

    private static func isInProcessingOrder(_ events: UnsafeBufferPointer<NotificationEvent>) -> Bool {
        for index in events.indices.dropFirst() where precedes(events[index], events[index - 1]) {
            return false
        }
        return true
    }

    /// The filters, in their order, then the state machine.
    private func consider(_ event: NotificationEvent, state: inout SubscriptionState, seen: inout Set<String>) {
        guard seen.insert(event.notificationUUID).inserted else {
            state.result.dataQuality.duplicatesSkipped += 1
            return
        }
        guard event.environment == options.environment else {
            state.result.dataQuality.outsideEnvironment += 1
            return
        }
        guard event.inAppOwnershipType != "FAMILY_SHARED" else {
            state.result.dataQuality.familySharedSkipped += 1
            return
        }
        guard let subscription = event.originalTransactionId else { return }
        state.apply(event, subscription: subscription)
    }
}
