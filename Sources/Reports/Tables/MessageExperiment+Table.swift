import Analysis

extension MessageExperiment {
    package static let fileName = "message_experiment.csv"
    package static let columns =
        [
            "arm", "episodes", "mature_episodes", "mature_recovered", "mature_recovery_rate",
            "mature_recovery_rate_low", "mature_recovery_rate_high",
        ] + curveDays.map { "cif_day_\($0)" }
        + [
            "difference", "difference_low", "difference_high", "hazard_ratio", "hazard_ratio_low", "hazard_ratio_high",
        ]

    /// `message_experiment.csv`: one row per arm in UTF-8 order of the names, the reference arm (the first) with its
    /// comparison cells empty; rates, differences and ratios with 6 decimals, empty where undefined.
    package static func table(_ rows: [Row]) -> ReportTable {
        let places = ReportTable.Cell.ratePlaces
        return ReportTable(
            name: fileName, columns: columns,
            rows: rows.map { row in
                let head: [ReportTable.Cell] = [
                    .text(row.arm), .integer(row.episodes), .integer(row.matureEpisodes),
                    .integer(row.matureRecovered), .decimal(ifDefined: row.matureRecoveryRate, places: places),
                    .decimal(ifDefined: row.matureRecoveryInterval?.low, places: places),
                    .decimal(ifDefined: row.matureRecoveryInterval?.high, places: places),
                ]
                let curve: [ReportTable.Cell] = row.cif.map { .decimal($0, places: places) }
                let comparison: [ReportTable.Cell] = [
                    .decimal(ifDefined: row.difference, places: places),
                    .decimal(ifDefined: row.differenceInterval?.low, places: places),
                    .decimal(ifDefined: row.differenceInterval?.high, places: places),
                    .decimal(ifDefined: row.hazardRatio?.ratio, places: places),
                    .decimal(ifDefined: row.hazardRatio?.interval?.low, places: places),
                    .decimal(ifDefined: row.hazardRatio?.interval?.high, places: places),
                ]
                return head + curve + comparison
            })
    }
}
