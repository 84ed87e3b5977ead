import Analysis

extension EpisodeList {
    package static let fileName = "episodes.csv"
    /// The columns of the `episodes` SQL view that a reader needs, with durations and maturity as of the question's
    /// as-of time. Amounts are currency units (the recovering price, and the price at stake of the failed renewal).
    package static let columns = [
        "original_transaction_id", "sequence", "product_id", "storefront", "cohort_month", "start_at", "end_at",
        "outcome", "recovered_by", "end_inferred", "mature", "duration_days", "grace_days", "grace_end",
        "grace_end_inferred", "saved_in_grace", "trial_conversion", "offer_type", "recovery_amount",
        "recovery_currency", "stake_amount", "stake_currency",
    ]
    /// `duration_days` decimals: 4, as `exposure_days`.
    package static let durationPlaces = ReportTable.Cell.exposurePlaces

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
            episode.recoveredBy.map { .text($0.rawValue) } ?? .empty,
            .text(episode.endInferred ? "true" : "false"),
            .text(episode.isMature(asOf: asOf) ? "true" : "false"),
            .decimal(Double(episode.duration(asOf: asOf)) / Double(Milliseconds.day), places: durationPlaces),
            EpisodeGrouping.graceLength.value(of: episode).cell,
            episode.graceEnd.map { .text(UTCTime.timestamp($0)) } ?? .empty,
            .text(episode.graceEndInferred ? "true" : "false"),
            .text(episode.isSavedInGrace ? "true" : "false"),
            .text(episode.isTrialConversion ? "true" : "false"),
            episode.offerType.map { .integer(Int($0)) } ?? .empty,
            .milliunits(ifDefined: episode.recoveryPrice),
            .text(episode.recoveryCurrency ?? ""),
            .milliunits(ifDefined: episode.stakePrice),
            .text(episode.stakeCurrency ?? ""),
        ]
    }
}
