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
        writer.paragraph(
            """
            A cohort holds the episodes that started in one \(unit). Its figures are *final* when all its episodes \
            are mature (started at least 61 days before the as-of time) and the last of them matured at least 7 \
            days before the latest notification loaded: a notification still on its way was signed later and can \
            change none of them. *Still changing*: some episodes are younger, and the mature rates cover only the \
            older ones. *Awaiting late notifications*: every episode is mature, but the last matured within those 7 \
            days. The date is when the figures can be final: 7 days after the last episode matures. *Recovered of \
            ended* is recovered / ended episodes, young ones included: it runs high while episodes are open, \
            because recoveries are known before expiries, so use the mature rates for decisions.
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

    /// The summary shows this many storefronts, those with the most episodes.
    static let shownStorefronts = 10

    /// The storefronts with the most episodes, with their mature rates, and all of them together.
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
                ? "The \(shown.count) storefronts with the most episodes, of \(report.storefronts.count); "
                    + "`churn query recovery-rate --group-by storefront` gives every one. "
                : "Every storefront, the most episodes first. ")
                + "Storefronts are App Store country codes; a wide interval means few mature episodes, so compare "
                + "intervals before rates.")
        var rows = shown.map { storefront in
            [storefront.storefront.isEmpty ? "(no storefront)" : storefront.storefront]
                + Self.groupCells(storefront.figures)
        }
        rows.append(["All storefronts"] + Self.groupCells(report.all))
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
