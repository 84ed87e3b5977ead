import Analysis
import Simulator

/// Many subscribers simulated without signing: their ground truth and the events their notifications give, for
/// tests that need large numbers.
struct UnsignedSimulation: Sendable {
    let options: SimulationOptions
    /// Every subscriber's episodes, in subscriber order.
    let truth: [GroundTruthEpisode]
    /// Every notification, in subscriber order (no resends: they are added when signing).
    let notifications: [SimulatedNotification]

    init(_ options: SimulationOptions) {
        self.options = options
        let model = RetryModel(options: options)
        var truth: [GroundTruthEpisode] = []
        var notifications: [SimulatedNotification] = []
        for index in 0..<options.subscribers {
            let history = SubscriberHistory(index: index, options: options, model: model)
            truth += history.truth
            notifications += history.notifications.joined()
        }
        self.truth = truth
        self.notifications = notifications
    }

    /// The events of every notification, in subscriber order.
    var events: [NotificationEvent] {
        notifications.map { NotificationEvent($0, bundleId: options.bundleID) }
    }

    /// The episodes a report of Production counts: purchasers' Production episodes.
    var productionTruth: [GroundTruthEpisode] {
        truth.filter { $0.environment == "Production" && $0.ownership == "PURCHASED" }
    }

    /// The episode builder's finished dataset of `environment` as of the end of the history.
    func dataset(environment: String = "Production", asOf: Int64? = nil) -> EpisodeDataset {
        EpisodeBuilder(options: .init(environment: environment, asOf: asOf ?? options.end)).dataset(events)
    }
}
