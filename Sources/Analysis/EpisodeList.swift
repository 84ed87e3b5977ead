/// The episodes themselves, one row each, for `churn query episodes`: the columns of the `episodes` SQL view
/// that a reader needs, with durations as of the question's as-of time.
package enum EpisodeList {
    package static let fileName = "episodes.csv"
    package static let columns = [
        "original_transaction_id", "sequence", "product_id", "storefront", "cohort_month", "start_at", "end_at",
        "outcome", "duration_days", "grace_days", "grace_end", "saved_in_grace", "trial_conversion", "offer_type",
        "recovery_amount", "recovery_currency",
    ]
    /// `duration_days` decimals: 4, as `exposure_days`.
    package static let durationPlaces = ReportTable.Cell.exposurePlaces

    /// Episodes in a stable order: by start, then subscription (UTF-8 bytes), then sequence.
    package static func sorted(_ episodes: [Episode]) -> [Episode] {
        episodes.sorted { lhs, rhs in
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.subscription != rhs.subscription {
                return lhs.subscription.utf8.lexicographicallyPrecedes(rhs.subscription.utf8)
            }
            return lhs.sequence < rhs.sequence
        }
    }

    /// One episode's cells, in the order of ``columns``.
    /// - Parameters:
    ///   - episode: the episode.
    ///   - asOf: the as-of time (Unix ms) an open episode's duration runs to.
    package static func row(_ episode: Episode, asOf: Int64) -> [ReportTable.Cell] {
        [
            .text(episode.subscription),
            .integer(episode.sequence),
            .text(episode.productId ?? ""),
            .text(episode.storefront ?? ""),
            .text(episode.cohortMonth),
            .text(UTCTime.timestamp(episode.start)),
            episode.end.map { .text(UTCTime.timestamp($0)) } ?? .empty,
            .text(episode.outcome.rawValue),
            .decimal(Double(episode.duration(asOf: asOf)) / Double(Milliseconds.day), places: durationPlaces),
            EpisodeGrouping.graceLength.value(of: episode).cell,
            episode.graceEnd.map { .text(UTCTime.timestamp($0)) } ?? .empty,
            .text(episode.isSavedInGrace ? "true" : "false"),
            .text(episode.isTrialConversion ? "true" : "false"),
            episode.offerType.map { .integer(Int($0)) } ?? .empty,
            episode.recoveryPrice.map { .milliunits($0) } ?? .empty,
            .text(episode.recoveryCurrency ?? ""),
        ]
    }
}
