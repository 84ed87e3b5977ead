import Analysis

extension SummaryDocument {
    func writeHeadline(to writer: inout MarkdownWriter) {
        let all = report.outcomes
        let grace = report.grace
        let comparison = report.graceComparison
        writer.heading("Headline figures")
        var ended =
            "The rest of the ended episodes were cancelled by the subscriber during retry ("
            + HumanFormat.count(all.cancelled) + ") or ended by a refund, a revocation or another expiry ("
            + HumanFormat.count(all.other) + ")."
        if all.closed == 0 { ended = "No episode has ended yet." }
        writer.bulletList([
            "**Billing-retry episodes: \(HumanFormat.count(all.episodes))**, of which \(HumanFormat.count(all.open)) "
                + "still open. Each is one failed renewal of one subscription, from the failed charge to its outcome.",
            "**Recovery rate: \(Self.share(all.recovered, of: all.closed))** of the ended episodes. The share of "
                + "ended episodes in which the App Store collected the payment. Open episodes count once they end.",
            "**Involuntary churn: \(Self.share(all.expired, of: all.closed))** of the ended episodes. The share of "
                + "ended episodes that expired because billing retry ended without a payment. " + ended,
            "**Saved in grace: \(Self.share(grace.savedInGrace, of: grace.decided))** of the grace-period episodes "
                + "whose grace period is over. Episodes with a billing grace period in which the payment was "
                + "recovered before the grace period ended, so the subscriber kept access throughout.",
            "**Revenue saved in grace: \(revenueText)**. The price of the renewal that recovered each saved "
                + "episode, per currency (currencies are never added together): one billing period each, not the "
                + "subscriber's lifetime value.",
            "**Recovery rate with a grace period: \(HumanFormat.percent(comparison.withGrace.recoveryRate)); "
                + "without: \(HumanFormat.percent(comparison.withoutGrace.recoveryRate))**. The recovery rate of "
                + "ended episodes with and without a grace period, side by side. An association, not the effect of "
                + "grace: the two groups can differ in other ways (product, price, country).",
        ])
    }

    /// `EUR 4.99, USD 19.98`, or `none`.
    var revenueText: String {
        let currencies = report.revenue.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard !currencies.isEmpty else { return "none" }
        return currencies.map { currency in
            MarkdownWriter.escape(HumanFormat.money(report.revenue[currency]?.revenue, currency: currency))
        }.joined(separator: ", ")
    }

    func writePace(to writer: inout MarkdownWriter) {
        writer.heading("How fast recoveries come")
        writer.image(alt: "Recovery curve", path: SVGChart.fileName)
        let marks = report.pace.marks
        writer.table(
            header: [
                "By day", "Recovered (share of all episodes)", "Share of the recoveries by day 60",
                "Apple's published pace",
            ],
            alignments: [.right, .right, .right, .right],
            rows: marks.map { mark in
                [
                    String(mark.day), HumanFormat.percent(mark.cifRecovery), HumanFormat.percent(mark.shareOfDay60),
                    mark.appleReference.map { HumanFormat.percent($0) } ?? "",
                ]
            })
        writer.paragraph(
            """
            *Recovered* is `cif_recovery`, the cumulative incidence of recovery: the share of all episodes \
            recovered by that day of retry, with open episodes counted only for as long as they have been \
            observed and expiry, cancellation and other ends competing with recovery. *Share of the recoveries by \
            day 60* is `cif_recovery` on that day divided by `cif_recovery` on day 60: of the recoveries that \
            happen within 60 days, the share that had happened by then. Apple's published pace (40%, 75% and 90% \
            of recoveries by day 3, 16 and 28, the three grace-period lengths) is on this second scale.
            """)
        if report.pace.cifAtHorizon == 0 {
            writer.paragraph("No episode recovered within 60 days, so the shares of the recoveries are n/a.")
        }
    }

    func writeCohorts(to writer: inout MarkdownWriter) {
        writer.heading("Recovery by cohort")
        var rows = report.cohorts.map { cohort in
            [cohort.period.description] + Self.outcomeCells(cohort.outcomes)
                + [cohort.isTooYoung ? "too young to judge" : ""]
        }
        rows.append(["All cohorts"] + Self.outcomeCells(report.outcomes) + [""])
        writer.table(
            header: ["Cohort"] + Self.outcomeHeader + ["Note"],
            alignments: [.left] + Array(repeating: .right, count: Self.outcomeHeader.count) + [.left],
            rows: rows)
        let unit = report.options.granularity == .month ? "month" : "week"
        writer.paragraph(
            """
            Recovery rate = recovered / (recovered + expired + cancelled + other); open episodes are left out \
            until they end. A cohort is *too young to judge* while fewer than 60 days (the App Store's retry \
            period) have passed since the end of its \(unit): its latest episodes may still be in retry, and the \
            episodes that end quickly weigh too much in its rate, so it can still change a lot.
            """)
    }

    func writeProducts(to writer: inout MarkdownWriter) {
        writer.heading("Recovery by product")
        var rows = report.products.map { product in
            [product.productId.isEmpty ? "(no product)" : product.productId] + Self.outcomeCells(product.outcomes)
        }
        rows.append(["All products"] + Self.outcomeCells(report.outcomes))
        writer.table(
            header: ["Product"] + Self.outcomeHeader,
            alignments: [.left] + Array(repeating: .right, count: Self.outcomeHeader.count),
            rows: rows)
    }

    func writeGrace(to writer: inout MarkdownWriter) {
        let grace = report.grace
        writer.heading("Grace period")
        writer.paragraph(
            "Episodes with a billing grace period: \(HumanFormat.count(grace.graceEpisodes)). Saved in grace: "
                + "\(HumanFormat.count(grace.savedInGrace)); recovered after the grace period: "
                + "\(HumanFormat.count(grace.recoveredAfterGrace)); expired: \(HumanFormat.count(grace.expired)); "
                + "cancelled: \(HumanFormat.count(grace.cancelled)); other: \(HumanFormat.count(grace.other)); "
                + "open: \(HumanFormat.count(grace.open)). "
                + "Save rate: \(Self.share(grace.savedInGrace, of: grace.decided)) of the grace-period episodes "
                + "whose grace period is over (ended, or open past the grace end). "
                + "Per cohort: `\(GracePeriod.fileName)`.")
        let comparison = report.graceComparison
        writer.table(
            header: ["Group"] + Self.outcomeHeader,
            alignments: [.left] + Array(repeating: .right, count: Self.outcomeHeader.count),
            rows: [
                ["With a grace period"] + Self.outcomeCells(comparison.withGrace),
                ["Without a grace period"] + Self.outcomeCells(comparison.withoutGrace),
            ])
        let currencies = report.revenue.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if currencies.isEmpty {
            writer.paragraph("No episode was saved in grace, so no revenue was saved.")
        } else {
            writer.table(
                header: ["Currency", "Saved episodes", "Revenue saved"],
                alignments: [.left, .right, .right],
                rows: currencies.map { currency in
                    let saved = report.revenue[currency] ?? GraceRevenue.Saved()
                    return [
                        currency.isEmpty ? "(no currency)" : currency, HumanFormat.count(saved.episodes),
                        HumanFormat.money(saved.revenue, currency: currency),
                    ]
                })
        }
    }
}
