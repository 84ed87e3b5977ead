import Analysis

extension Report {
    /// Whether a group's figures can still change, and from when they cannot.
    ///
    /// A notification closes or changes an episode only while it is signed by the episode's maturity (t0 + 61
    /// days; 91 under a commitment), and one signed within ``lateDeliveryWindow`` before the latest `signedDate`
    /// loaded may still be on its way. So a group's figures are final when every episode of the group is mature and
    /// the last of them matured at least ``lateDeliveryWindow`` before the latest `signedDate` loaded
    /// (METRICS-NOTES.md, "Cohorts and products").
    package enum Finality: Hashable, Sendable {
        case final
        /// Some episodes are younger than 61 days: final from ``EpisodeGroup/matureFrom`` + 7 days, the first time a
        /// report on the whole group can hold 7 days of later notifications.
        case maturing(finalFrom: Int64)
        /// Every episode is mature, but the last of them matured less than 7 days before the latest `signedDate`
        /// loaded, so a notification that changes it may still arrive: final from its maturity + 7 days.
        case awaitingLateNotifications(finalFrom: Int64)
    }

    /// The finality of `group`'s figures; nil for an empty group.
    package func finality(of group: EpisodeGroup) -> Finality? {
        guard let matureFrom = group.matureFrom else { return nil }
        let finalFrom = Self.afterLateDelivery(matureFrom)
        guard group.isMature else { return .maturing(finalFrom: finalFrom) }
        return finalFrom <= latestLoaded ? .final : .awaitingLateNotifications(finalFrom: finalFrom)
    }

    /// The finality of the figures over mature episodes (the headline): they need only the late notifications. An
    /// episode may have matured at the as-of time itself, so they are final once the data hold 7 days of
    /// notifications signed after it.
    package var finalityOfMatureEpisodes: Finality {
        mayMissLateNotifications ? .awaitingLateNotifications(finalFrom: Self.afterLateDelivery(asOf)) : .final
    }

    /// The latest `signedDate` loaded; the as-of time when it is not known.
    private var latestLoaded: Int64 {
        options.latestSignedDate ?? asOf
    }

    /// `time` + ``lateDeliveryWindow``, at most the latest representable time.
    private static func afterLateDelivery(_ time: Int64) -> Int64 {
        let (later, overflow) = time.addingReportingOverflow(lateDeliveryWindow)
        return overflow ? Int64.max : later
    }
}
