import Analysis

extension ForecastCheck {
    package static let fileName = "forecast_check.csv"
    package static let columns = [
        "chance_band", "episodes", "expected_recoveries", "observed_recoveries", "observed_share",
        "observed_share_low", "observed_share_high", "mean_chance",
    ]

    /// The label of band k: `0.3-0.4` for [0.3, 0.4); the last, `0.9-1.0`, holds 1 too.
    package static func bandLabel(_ band: Int) -> String {
        "0.\(band)-" + (band + 1 >= bandCount ? "1.0" : "0.\(band + 1)")
    }

    /// `forecast_check.csv`: one row per band of the chance that holds an episode, lowest first, then the `(all)`
    /// row (the only one when no episode was open at the check time); shares and chances with 6 decimals.
    package static func table(_ check: Check) -> ReportTable {
        let bands = check.bands.enumerated().filter { $0.element.episodes > 0 }.map {
            (bandLabel($0.offset), $0.element)
        }
        return ReportTable(
            name: fileName,
            columns: columns,
            rows: (bands + [(ReportTable.total, check.total)]).map { label, row in
                let places = ReportTable.Cell.ratePlaces
                return [
                    .text(label), .integer(row.episodes), .decimal(row.expected, places: places),
                    .integer(row.observed), .decimal(ifDefined: row.observedShare, places: places),
                    .decimal(ifDefined: row.interval?.low, places: places),
                    .decimal(ifDefined: row.interval?.high, places: places),
                    .decimal(ifDefined: row.meanChance, places: places),
                ]
            })
    }
}
