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
/// 4. Run the episode state machine over what is left.
package struct EpisodeBuilder: Sendable {
    /// What a report takes into account.
    package struct Options: Hashable, Sendable {
        /// The `data.environment` that counts.
        package var environment: String
        /// The report's as-of time (ms): later notifications are ignored, open episodes are censored here.
        package var asOf: Int64

        package init(environment: String = "Production", asOf: Int64) {
            self.environment = environment
            self.asOf = asOf
        }
    }

    /// An open episode without a closing notification for longer than this is `unresolved`.
    package static let unresolvedAfter: Int64 = 61 * Milliseconds.day

    package var options: Options

    package init(options: Options) {
        self.options = options
    }

    /// Builds the episodes of one subscription.
    ///
    /// - Parameter events: all notifications of one subscription (one `originalTransactionId`), in any order.
    ///   Notifications without an `originalTransactionId` are filtered and counted like the others, then ignored.
    /// - Returns: the subscription's episodes in order, its data-quality counts and its renewals per month.
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
        if !Self.isInProcessingOrder(events) { events.sort(by: Self.precedes) }
        seen.removeAll(keepingCapacity: true)
        seen.reserveCapacity(events.count)

        var result = SubscriptionEpisodes(subscription: Self.subscription(of: events))
        var current: Episode?
        // Indices rather than `for event in events`, which would copy every event.
        for index in events.indices {
            // Sorted by signedDate: everything from here on is after the as-of time.
            if events[index].signedDate > options.asOf { break }
            consider(events[index], current: &current, result: &result, seen: &seen)
        }
        if let open = current.take() {
            if Milliseconds.elapsed(from: open.start, to: options.asOf) > Self.unresolvedAfter {
                result.dataQuality.unresolvedOpenEpisodes += 1
            }
            result.episodes.append(open)
        }
        return result
    }

    /// The first `originalTransactionId` present.
    private static func subscription(of events: [NotificationEvent]) -> String? {
        for index in events.indices {
            if let subscription = events[index].originalTransactionId { return subscription }
        }
        return nil
    }

    private static func isInProcessingOrder(_ events: [NotificationEvent]) -> Bool {
        for index in events.indices.dropFirst() where precedes(events[index], events[index - 1]) {
            return false
        }
        return true
    }

    /// The filters, in their order, then the state machine.
    private func consider(
        _ event: NotificationEvent,
        current: inout Episode?,
        result: inout SubscriptionEpisodes,
        seen: inout Set<String>
    ) {
        guard seen.insert(event.notificationUUID).inserted else {
            result.dataQuality.duplicatesSkipped += 1
            return
        }
        guard event.environment == options.environment else {
            result.dataQuality.outsideEnvironment += 1
            return
        }
        guard event.inAppOwnershipType != "FAMILY_SHARED" else {
            result.dataQuality.familySharedSkipped += 1
            return
        }
        guard let subscription = event.originalTransactionId else { return }
        apply(event, subscription: subscription, to: &current, result: &result)
    }

    /// One step of the state machine: `current` is the open episode, if any.
    private func apply(
        _ event: NotificationEvent,
        subscription: String,
        to current: inout Episode?,
        result: inout SubscriptionEpisodes
    ) {
        let subtype = event.subtype
        if event.notificationType == "DID_RENEW", subtype != "BILLING_RECOVERY" {
            result.renewals.add(CalendarPeriod(monthContaining: event.signedDate))
        }
        guard current != nil else {
            switch (event.notificationType, subtype) {
            case ("DID_FAIL_TO_RENEW", _):
                current = openEpisode(event, subscription: subscription, sequence: result.episodes.count + 1)
            case ("DID_RENEW", "BILLING_RECOVERY"):
                result.dataQuality.orphanDidRenewBillingRecovery += 1
            case ("EXPIRED", "BILLING_RETRY"):
                result.dataQuality.orphanExpiredBillingRetry += 1
            case ("GRACE_PERIOD_EXPIRED", _):
                result.dataQuality.orphanGracePeriodExpired += 1
            default:
                break
            }
            return
        }

        // The grace end comes from the first notification of the episode that carries one.
        // (Optional chaining mutates the open episode in place instead of copying it.)
        if let graceEnd = event.gracePeriodExpiresDate, current?.hasGrace == true, current?.graceEnd == nil {
            current?.graceEnd = graceEnd
        }
        let closing: (outcome: Episode.Outcome, end: Int64)
        switch (event.notificationType, subtype) {
        case ("DID_RENEW", _):
            closing = (.recovered, event.purchaseDate ?? event.signedDate)
            current?.recoveryPrice = event.price
            current?.recoveryCurrency = event.currency
        case ("EXPIRED", "BILLING_RETRY"):
            closing = (.expired, event.signedDate)
        case ("EXPIRED", "VOLUNTARY"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"):
            closing = (.cancelled, event.signedDate)
        case ("EXPIRED", _), ("REFUND", _), ("REVOKE", _):
            closing = (.other, event.signedDate)
        default:
            // DID_FAIL_TO_RENEW, GRACE_PERIOD_EXPIRED and everything else leave the episode open.
            return
        }
        current?.outcome = closing.outcome
        current?.end = closing.end
        current?.closingNotificationUUID = event.notificationUUID
        if let closed = current.take() { result.episodes.append(closed) }
    }

    private func openEpisode(_ event: NotificationEvent, subscription: String, sequence: Int) -> Episode {
        let hasGrace = event.subtype == "GRACE_PERIOD" || event.gracePeriodExpiresDate != nil
        return Episode(
            subscription: subscription,
            sequence: sequence,
            environment: options.environment,
            productId: event.productId,
            storefront: event.storefront,
            start: event.expiresDate ?? event.signedDate,
            hasGrace: hasGrace,
            graceEnd: hasGrace ? event.gracePeriodExpiresDate : nil,
            outcome: .open,
            openingNotificationUUID: event.notificationUUID,
            offerType: event.offerType,
            offerDiscountType: event.offerDiscountType,
            isTrialConversion: event.offerDiscountType == "FREE_TRIAL"
        )
    }
}
