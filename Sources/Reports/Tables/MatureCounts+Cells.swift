import Analysis

extension MatureCounts {
    /// `mature_episodes, mature_recovered, mature_recovery_rate, mature_recovery_rate_low,
    /// mature_recovery_rate_high` as cells.
    var cells: [ReportTable.Cell] {
        let interval = recoveryRateInterval
        return [
            .integer(episodes), .integer(recovered), .ratio(recovered, episodes),
            .decimal(ifDefined: interval?.low, places: ReportTable.Cell.ratePlaces),
            .decimal(ifDefined: interval?.high, places: ReportTable.Cell.ratePlaces),
        ]
    }
}
