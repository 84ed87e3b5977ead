import Analysis

extension EpisodeList {
    package static let fileName = "episodes.csv"
    /// The columns of the `episodes` SQL view that a reader needs, with durations and maturity as of the question's
    /// as-of time. Amounts are currency units (the recovering price, and the price at stake of the failed renewal).
    /// Every attribute `--group-by` takes is one of them (`cohort_month`, `cohort_week`, `product_id`, `storefront`,
    /// `offer_type`, `has_grace` with `grace_days`), so a grouped list needs no column of its own.
    package static let columns = [
        "original_transaction_id", "sequence", "product_id", "storefront", "cohort_month", "cohort_week", "start_at",
        "end_at", "outcome", "recovered_by", "end_inferred", "mature", "duration_days", "has_grace", "grace_days",
        "grace_end", "grace_end_inferred", "saved_in_grace", "trial_conversion", "offer_type", "offer_type_name",
        "recovery_amount", "recovery_currency", "stake_amount", "stake_currency", "revocation_type",
        "revocation_percentage", "billing_plan", "installments_at_risk",
    ]
    /// `duration_days` decimals: 4 (about 9 seconds), enough to read a duration by; the SQL view has it unrounded.
    package static let durationPlaces = 4

    /// One episode's cells, in the order of ``columns``: yes or no as booleans, and empty (`null` in JSON) for what
    /// the episode does not have (a product, an end, a grace length, an offer, a currency), as in the SQL view.
    /// - Parameters:
    ///   - episode: the episode.
    ///   - asOf: the as-of time (Unix ms) an open episode's duration runs to.
    package static func row(_ episode: Episode, asOf: Int64) -> [ReportTable.Cell] {
        [
            .text(episode.subscription),
            .integer(episode.sequence),
            text(episode.productId),
            text(episode.storefront),
            .text(episode.cohortMonth),
            .text(episode.cohort(.week).description),
            .text(UTCTime.timestamp(episode.start)),
            episode.end.map { .text(UTCTime.timestamp($0)) } ?? .empty,
            .text(episode.outcome.rawValue),
            episode.recoveredBy.map { .text($0.rawValue) } ?? .empty,
            .boolean(episode.endInferred),
            .boolean(episode.isMature(asOf: asOf)),
            .decimal(Double(episode.duration(asOf: asOf)) / Double(Milliseconds.day), places: durationPlaces),
            .boolean(episode.hasGrace),
            episode.graceDays.map { .integer($0) } ?? .empty,
            episode.graceEnd.map { .text(UTCTime.timestamp($0)) } ?? .empty,
            .boolean(episode.graceEndInferred),
            .boolean(episode.isSavedInGrace),
            .boolean(episode.isTrialConversion),
            episode.offerType.map { .integer(Int($0)) } ?? .empty,
            episode.offerType.map { EpisodeGrouping.offerTypeName(Int($0)) } ?? .empty,
            .milliunits(ifDefined: episode.recoveryPrice),
            text(episode.recoveryCurrency),
            .milliunits(ifDefined: episode.stakePrice),
            text(episode.stakeCurrency),
            text(episode.revocationType),
            episode.revocationPercentage.map { .exact(Int64($0), places: 3) } ?? .empty,
            .text(episode.billingPlan.rawValue), .integer(episode.installmentsAtRisk),
        ]
    }

    /// A text, or empty when missing or empty.
    private static func text(_ value: String?) -> ReportTable.Cell {
        guard let value, !value.isEmpty else { return .empty }
        return .text(value)
    }
}
