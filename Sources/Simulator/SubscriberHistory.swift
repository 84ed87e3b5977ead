import Analysis
import AppStoreNotifications
import NotificationTypes

/// One subscriber's notifications and ground truth, before signing: what ``SimulatedSubscriber`` signs, and what a
/// test can simulate for many subscribers without the cost of signing.
package struct SubscriberHistory: Sendable {
    /// Per subscription (purchaser first, then family members, then the `TEST` notification if any), the
    /// notifications in signed order.
    package var notifications: [[SimulatedNotification]]
    /// The subscriber's episodes, purchaser's first, as of the end of the history.
    package var truth: [GroundTruthEpisode]
    /// The purchaser's returns after involuntary expiries (with ``SimulationOptions/returnRate``).
    package var returns: [PlantedReturn]
    /// The lines the app logged of the billing-issue sheet (with ``SimulationOptions/sheets``), by time.
    package var sheetEvents: [PlantedSheetEvent]

    /// Simulates subscriber `index`.
    /// - Parameters:
    ///   - index: the subscriber's number, from 0.
    ///   - options: the simulation's options.
    ///   - model: `RetryModel(options: options)`, worked out once for many subscribers; nil: worked out here.
    package init(index: Int, options: SimulationOptions, model: RetryModel? = nil) {
        var timeline = SubscriptionTimeline(
            index: index,
            options: options,
            model: model ?? RetryModel(options: options),
            identifiers: Identifiers(seed: options.identitySeed)
        )
        var notifications = timeline.run()
        if index % options.testEvery == 0 {
            let time = timeline.profile.joined + 60_000
            if time < options.end {
                var uuids = SplitMix64(seed: options.identitySeed, index: UInt64(index), stream: 5)
                notifications.append([
                    SimulatedNotification(
                        notificationType: .test,
                        notificationUUID: Identifiers.uuid(&uuids),
                        signedDate: time,
                        environment: timeline.profile.environment
                    )
                ])
            }
        }
        self.notifications = notifications
        let environment = timeline.profile.environment.rawValue
        self.returns = timeline.returns.map { planted in
            var planted = planted
            planted.environment = environment
            return planted
        }
        self.truth = notifications.flatMap { GroundTruthEpisode.episodes(of: $0, asOf: options.end) }
        self.sheetEvents = timeline.sheetEvents
    }
}
