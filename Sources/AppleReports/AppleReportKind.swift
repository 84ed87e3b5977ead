/// The two App Store Connect Analytics Reports the comparison reads, told apart by their columns.
package enum AppleReportKind: String, Hashable, Sendable, CaseIterable {
    /// *App Store Subscription Event*: daily counts of subscription events (`Event Grouping`, `Event Sub Type`).
    case subscriptionEvent = "App Store Subscription Event"
    /// *App Store Subscription State*: daily counts of subscriptions per state (`State Metric`).
    case subscriptionState = "App Store Subscription State"
}
