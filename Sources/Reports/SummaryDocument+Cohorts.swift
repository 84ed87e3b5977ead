import Analysis

extension SummaryDocument {
    /// Cohorts with their mature rates and whether their figures are final.
    func writeCohorts(to writer: inout MarkdownWriter) {
        writer.heading("Cohorts")
        var rows = report.cohorts.map { cohort in
            [cohort.period.description] + Self.groupCells(cohort.figures)
                + [Self.status(report.finality(of: cohort.figures))]
        }
        rows.append(["All cohorts"] + Self.groupCells(report.all) + [Self.status(report.finality(of: report.all))])
        writer.table(
            header: ["Cohort"] + Self.groupHeader + ["Figures"],
            alignments: [.left] + Self.groupAlignments + [.left],
            rows: rows)
        let unit = report.options.granularity == .month ? "month" : "week"
        if let note = maturityNote() { writer.paragraph(note) }
        writer.paragraph(
            """
            A cohort holds the episodes that started in one \(unit). *Final*: all mature, the last at least 7 days \
            before the latest notification loaded, so no late notification can change them. *Still changing*: some \
            episodes are younger; *awaiting late notifications*: the last matured within those 7 days; the date says \
            when the figures can be final. *Recovered of ended* runs high while episodes are young: decide by the \
            mature rates.
            """)
    }

    /// Products over all cohorts, with their mature rates (all of them together are the cohorts' last row).
    func writeProducts(to writer: inout MarkdownWriter) {
        writer.heading("Products")
        guard !report.products.isEmpty else {
            writer.paragraph("No episode, so no product to show.")
            return
        }
        let rows = report.products.map { product in
            [product.productId.isEmpty ? "(no product)" : product.productId] + Self.groupCells(product.figures)
        }
        writer.table(header: ["Product"] + Self.groupHeader, alignments: [.left] + Self.groupAlignments, rows: rows)
    }

    /// The summary shows this many storefronts, those with the most episodes.
    static let shownStorefronts = 10

    /// The storefronts with the most episodes, with their mature rates (all of them together are the cohorts' last
    /// row).
    func writeStorefronts(to writer: inout MarkdownWriter) {
        writer.heading("Storefronts")
        let shown = report.storefronts.prefix(Self.shownStorefronts)
        guard !shown.isEmpty else {
            writer.paragraph("No episode, so no storefront to show.")
            return
        }
        let rest = report.storefronts.count - shown.count
        writer.paragraph(
            (rest > 0
                ? "The \(shown.count) storefronts (App Store country codes) with the most episodes, of "
                    + "\(report.storefronts.count); `churn query recovery-rate --group-by storefront` gives every one. "
                : "Every storefront (App Store country codes), the most episodes first. ")
                + "A wide interval means few mature episodes: compare intervals before rates.")
        let rows = shown.map { storefront in
            [storefront.storefront.isEmpty ? "(no storefront)" : storefront.storefront]
                + Self.groupCells(storefront.figures)
        }
        writer.table(
            header: ["Storefront"] + Self.groupHeader, alignments: [.left] + Self.groupAlignments, rows: rows)
    }

    /// `final`, `still changing (final on 2024-08-27)` or `awaiting late notifications (final on 2024-07-02)`: the
    /// UTC day from which the figures can be final; empty for an empty group.
    static func status(_ finality: Report.Finality?) -> String {
        switch finality {
        case .final: "final"
        case .maturing(let from): "still changing (final on " + UTCTime.date(from) + ")"
        case .awaitingLateNotifications(let from): "awaiting late notifications (final on " + UTCTime.date(from) + ")"
        case nil: ""
        }
    }

    /// Cohort, product and grace tables: the columns after the group's name.
    static let groupHeader = [
        "Episodes", "Open", "Mature", "Recovered, mature (95% interval)", "Involuntary churn, mature (95% interval)",
        "Recovered of ended",
    ]

    static let groupAlignments: [MarkdownWriter.Alignment] = Array(repeating: .right, count: groupHeader.count)

    package static func groupCells(_ group: EpisodeGroup) -> [String] {
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
