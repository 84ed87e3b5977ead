import Analysis

extension Report {
    /// Whether a group's figures can still change, and from when they cannot.
    ///
    /// Figures are final when every episode of the group is mature (t0 + 61 days ≤ as-of) and the data hold at least
    /// ``lateDeliveryWindow`` of notifications signed after the as-of time, so that no notification signed by then
    /// can still arrive (METRICS-NOTES.md, "Cohorts and products").
    package enum Finality: Hashable, Sendable {
        case final
        /// Some episodes are younger than 61 days: final from ``EpisodeGroup/matureFrom`` + 7 days, the first time a
        /// report on the whole group can hold 7 days of later notifications.
        case maturing(finalFrom: Int64)
        /// Every episode is mature, but notifications signed in the 7 days before the as-of time may still arrive:
        /// final from the as-of time + 7 days.
        case awaitingLateNotifications(finalFrom: Int64)
    }

    /// The finality of `group`'s figures; nil for an empty group.
    package func finality(of group: EpisodeGroup) -> Finality? {
        guard let matureFrom = group.matureFrom else { return nil }
        guard group.isMature else { return .maturing(finalFrom: Self.afterLateDelivery(matureFrom)) }
        return finalityOfMatureEpisodes
    }

    /// The finality of the figures over mature episodes (the headline): they need only the late notifications.
    package var finalityOfMatureEpisodes: Finality {
        mayMissLateNotifications ? .awaitingLateNotifications(finalFrom: Self.afterLateDelivery(asOf)) : .final
    }

    /// `time` + ``lateDeliveryWindow``, at most the latest representable time.
    private static func afterLateDelivery(_ time: Int64) -> Int64 {
        let (later, overflow) = time.addingReportingOverflow(lateDeliveryWindow)
        return overflow ? Int64.max : later
    }
}
