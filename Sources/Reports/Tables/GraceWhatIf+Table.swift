import Analysis

extension GraceWhatIf {
    package static let fileName = "grace_whatif.csv"
    package static let columns = [
        "bundle_id", "setting", "renewal_type", "product_id", "grace_days", "current", "mature_episodes",
        "recovered_in_grace", "paid_days_kept", "free_access_days", "paid_days_kept_per_episode",
        "free_access_days_per_episode", "paid_amount_kept", "free_access_amount",
    ]
    /// The day figures are measured values: 6 decimals, as rates and hazards.
    static let dayPlaces = ReportTable.Cell.ratePlaces

    /// `grace_whatif.csv`: one row per app, setting and product and an `(all)` row per app and setting; `current` as
    /// `true` or `false`, the per-episode figures empty without a mature episode, the amounts (currency units, 3
    /// decimals) empty where the prices at stake are not of one currency.
    package static func table(_ rows: [Row]) -> ReportTable {
        ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                let figures = row.figures
                return [
                    .text(row.bundleId), .text(row.setting.name),
                    row.setting.renewalType.map { .text($0.rawValue) } ?? .empty,
                    .text(row.productId ?? ReportTable.total),
                    row.graceDays.map { .integer($0) } ?? .empty, .boolean(row.isCurrent),
                    .integer(figures.matureEpisodes), .integer(figures.recoveredInGrace),
                    .decimal(figures.paidDaysKept, places: dayPlaces),
                    .decimal(figures.freeAccessDays, places: dayPlaces),
                    .decimal(ifDefined: figures.paidDaysKeptPerEpisode, places: dayPlaces),
                    .decimal(ifDefined: figures.freeAccessDaysPerEpisode, places: dayPlaces),
                    .decimal(ifDefined: figures.paidAmountKept, places: 3),
                    .decimal(ifDefined: figures.freeAccessAmount, places: 3),
                ]
            })
    }
}
