import Analysis

extension SummaryDocument {
    /// Cohorts with their mature rates and whether their figures are final.
    func writeCohorts(to writer: inout MarkdownWriter) {
        writer.heading("Cohorts")
        var rows = report.cohorts.map { cohort in
            [cohort.period.description] + Self.groupCells(cohort.figures) + [Self.status(cohort.figures)]
        }
        rows.append(["All cohorts"] + Self.groupCells(report.all) + [Self.status(report.all)])
        writer.table(
            header: ["Cohort"] + Self.groupHeader + ["Figures"],
            alignments: [.left] + Self.groupAlignments + [.left],
            rows: rows)
        let unit = report.options.granularity == .month ? "month" : "week"
        writer.paragraph(
            """
            A cohort holds the episodes that started in one \(unit). Its figures are *final* once all its episodes \
            are mature (started at least 61 days before the as-of time); until then they are *still changing*: its \
            mature rates cover only its older episodes, and the date says when the last one matures. *Recovered of \
            ended* is recovered / ended episodes, young ones included: it runs high while episodes are open, because \
            recoveries are known before expiries, so use the mature rates for decisions.
            """)
    }

    /// Products over all cohorts, with their mature rates.
    func writeProducts(to writer: inout MarkdownWriter) {
        writer.heading("Products")
        var rows = report.products.map { product in
            [product.productId.isEmpty ? "(no product)" : product.productId] + Self.groupCells(product.figures)
        }
        rows.append(["All products"] + Self.groupCells(report.all))
        writer.table(header: ["Product"] + Self.groupHeader, alignments: [.left] + Self.groupAlignments, rows: rows)
    }

    /// `final`, or `still changing (final on 2024-08-20)`: the UTC day the group's last episode matures.
    static func status(_ group: EpisodeGroup) -> String {
        if group.isMature { return "final" }
        guard let from = group.matureFrom else { return "" }
        return "still changing (final on " + UTCTime.date(from) + ")"
    }

    /// Cohort, product and grace tables: the columns after the group's name.
    static let groupHeader = [
        "Episodes", "Open", "Mature", "Recovered, mature (95% interval)", "Involuntary churn, mature (95% interval)",
        "Recovered of ended",
    ]

    static let groupAlignments: [MarkdownWriter.Alignment] = Array(repeating: .right, count: groupHeader.count)

    static func groupCells(_ group: EpisodeGroup) -> [String] {
        let mature = group.mature
        return [
            HumanFormat.count(group.outcomes.episodes), HumanFormat.count(group.outcomes.open),
            HumanFormat.count(mature.episodes),
            HumanFormat.percent(mature.recoveryRate, interval: mature.recoveryRateInterval),
            HumanFormat.percent(mature.expiredRate, interval: mature.expiredRateInterval),
            HumanFormat.percent(group.outcomes.recoveryRate),
        ]
    }
}
