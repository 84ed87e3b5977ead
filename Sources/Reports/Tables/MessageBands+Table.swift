import Analysis

extension MessageBands {
    package static let fileName = "message_bands.csv"
    package static let columns = [
        "band", "first_day", "last_day", "interval_hours", "episodes_entering", "messages", "recoveries",
        "exposure_days", "hazard_per_day", "recoveries_per_1000_messages", "message_day_hazard", "other_day_hazard",
        "hazard_ratio", "hazard_ratio_low", "hazard_ratio_high",
    ]

    /// `message_bands.csv`: one row per band, then `(all)` with the pooled hazard ratio and every cell before
    /// `message_day_hazard` empty.
    ///
    /// - Parameters:
    ///   - figures: ``figures(episodes:asOf:schedule:)``, one per band of `schedule`.
    ///   - schedule: the schedule the figures were computed with.
    package static func table(_ figures: [Figures], schedule: MessageSchedule) -> ReportTable {
        var table = ReportTable(name: fileName, columns: columns)
        for (band, bandFigures) in zip(schedule.bands, figures) {
            table.rows.append(
                [.integer(band.number), .integer(band.firstDay), .integer(band.lastDay), .integer(band.intervalHours)]
                    + exposureCells(bandFigures) + ratioCells(bandFigures.dayComparison?.hazardRatio)
            )
        }
        table.rows.append(
            [.text(ReportTable.total)] + Array(repeating: .empty, count: columns.count - 1 - ratioColumnCount)
                + ratioCells(pooled(figures))
        )
        return table
    }

    private static func exposureCells(_ figures: Figures) -> [ReportTable.Cell] {
        [
            .integer(figures.episodesEntering), .integer(figures.messages), .integer(figures.recoveries),
            .decimal(figures.exposureDays, places: ReportTable.Cell.ratePlaces),
            .decimal(ifDefined: figures.hazardPerDay, places: ReportTable.Cell.ratePlaces),
            .decimal(ifDefined: figures.recoveriesPer1000Messages, places: ReportTable.Cell.perThousandPlaces),
        ]
    }

    /// `message_day_hazard … hazard_ratio_high`: the last columns.
    private static let ratioColumnCount = 5

    /// `message_day_hazard … hazard_ratio_high`; all empty without a comparison.
    private static func ratioCells(_ ratio: RateRatio?) -> [ReportTable.Cell] {
        let places = ReportTable.Cell.ratePlaces
        return [
            .decimal(ifDefined: ratio?.compared.rate, places: places),
            .decimal(ifDefined: ratio?.reference.rate, places: places),
            .decimal(ifDefined: ratio?.ratio, places: places),
            .decimal(ifDefined: ratio?.interval?.low, places: places),
            .decimal(ifDefined: ratio?.interval?.high, places: places),
        ]
    }
}
