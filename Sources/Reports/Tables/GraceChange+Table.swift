import Analysis

extension GraceChange {
    package static let fileName = "grace_change.csv"
    /// The columns after the change's own: per figure, in ``Figure/Name`` order.
    static let figureColumns = [
        "before", "after", "comparison_before", "comparison_after", "did", "did_low", "did_high", "placebo_did",
        "placebo_did_low", "placebo_did_high",
    ]
    package static let columns =
        [
            "bundle_id", "change_date", "setting_before", "setting_after", "products", "episodes_before",
            "episodes_after", "comparison",
        ] + Figure.Name.allCases.flatMap { name in figureColumns.map { "\(name.rawValue)_\($0)" } }

    /// `grace_change.csv`: one row per change; the date in ISO 8601 UTC with milliseconds, as `t0` is written,
    /// product lists `;`-separated, figures with 6 decimals, empty where undefined (the comparison's without one,
    /// the placebo's where the data do not reach back).
    package static func table(_ rows: [Row]) -> ReportTable {
        let places = ReportTable.Cell.ratePlaces
        return ReportTable(
            name: fileName,
            columns: columns,
            rows: rows.map { row in
                let head: [ReportTable.Cell] = [
                    .text(row.bundleId), .text(UTCTime.timestampWithMilliseconds(row.changeDate)),
                    row.settingBefore.map { .text($0) } ?? .empty, row.settingAfter.map { .text($0) } ?? .empty,
                    .text(row.products.joined(separator: ";")), .integer(row.episodesBefore),
                    .integer(row.episodesAfter), .text(row.comparison.joined(separator: ";")),
                ]
                return head
                    + row.figures.flatMap { figure -> [ReportTable.Cell] in
                        [
                            figure.before, figure.after, figure.comparisonBefore, figure.comparisonAfter, figure.did,
                            figure.interval?.low, figure.interval?.high, figure.placeboDid, figure.placeboInterval?.low,
                            figure.placeboInterval?.high,
                        ].map { .decimal(ifDefined: $0, places: places) }
                    }
            })
    }
}
