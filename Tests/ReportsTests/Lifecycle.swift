import Analysis
import Reports
import TestSupport

/// The billing-issue life of one Sandbox subscription (`BillingLifecycle`, from samples/billing-lifecycle) and its
/// report.
enum Lifecycle {
    static let subscription = BillingLifecycle.subscription
    static let asOf = BillingLifecycle.asOf
    static let events = BillingLifecycle.events

    /// The episodes of `events`, in Sandbox as of ``asOf``.
    static func dataset(_ events: [NotificationEvent] = events) -> EpisodeDataset {
        EpisodeBuilder(options: .init(environment: "Sandbox", asOf: asOf)).dataset(events)
    }

    static func report() -> Report {
        Report(
            dataset: dataset(), options: .init(environment: "Sandbox", rejections: ["bad_signature": 1]),
            forecastCheck: ForecastCheck.check(
                then: EpisodeBuilder(
                    options: .init(environment: "Sandbox", asOf: ForecastCheck.checkTime(asOf: asOf))
                ).dataset(events),
                now: dataset()))
    }
}
