import Analysis

extension SummaryDocument {
    /// How many of the latest months of `returns.csv` the summary shows.
    static let recentReturnMonths = 6

    /// The `(all)` row of `returns.csv`, when an episode expired.
    var allReturns: Returns.Row? {
        report.figures.returns.last { $0.group == ReportTable.total }
    }

    /// The longest horizon with an estimate, its share and its interval: 180 days, else 90, else 30.
    static func longestReturn(_ row: Returns.Row) -> (days: Int, share: Double, interval: ConfidenceInterval?)? {
        let shares = [row.returned30d, row.returned90d, row.returned180d]
        for index in shares.indices.reversed() {
            if let share = shares[index] { return (Returns.horizons[index], share, row.intervals[index]) }
        }
        return nil
    }

    /// The headline's line on how lasting involuntary churn was; nil when nothing expired.
    func returnsHeadlineLine() -> String? {
        guard let all = allReturns, let longest = Self.longestReturn(all) else { return nil }
        return "**Came back within \(longest.days) days: \(HumanFormat.percent(longest.share))** of the customers "
            + "billing retry lost (\(HumanFormat.count(all.expired)) expiries, Kaplan–Meier; 95% interval "
            + "\(HumanFormat.percentInterval(longest.interval))): that much of the involuntary churn did not last. "
            + "[Customers who come back](#customers-who-come-back) has the detail."
    }

    /// Of the customers lost to billing, who came back and how soon (`returns.csv`).
    func writeReturns(to writer: inout MarkdownWriter) {
        writer.heading("Customers who come back")
        guard let all = allReturns else {
            writer.paragraph(
                "No episode expired by the as-of time, so no customer was lost to billing and none could come back.")
            return
        }
        let shares = zip([all.returned30d, all.returned90d, all.returned180d], all.intervals).enumerated()
            .compactMap { index, pair -> String? in
                guard let share = pair.0 else { return nil }
                return "\(Returns.horizons[index]) days: \(HumanFormat.percent(share)) "
                    + "(\(HumanFormat.percentInterval(pair.1)))"
            }
        writer.paragraph(
            "Of the \(HumanFormat.count(all.expired)) customers billing retry lost (episodes that expired, inferred "
                + "expiries included), \(HumanFormat.count(all.returned)) came back by the as-of time: a new purchase "
                + "of the same subscription, or of another subscription of the same customer (the same Apple Account, "
                + "the same app account token, or a migrated subscription). Back within "
                + (shares.isEmpty ? "30 days: not yet known" : Self.list(shares)) + ", with 95% intervals. "
                + "A customer who has not come back counts as gone only for as long as they have been watched: the "
                + "shares are Kaplan–Meier estimates, so recent expiries, watched for less than a horizon, leave it "
                + "to the older ones, and a horizon no expiry has reached yet stays empty.")
        let months = report.figures.returns.filter { $0.group != ReportTable.total }
        let shown = months.suffix(Self.recentReturnMonths)
        writer.table(
            header: ["Month of expiry", "Expired", "Came back", "Within 30 days", "Within 90 days", "Within 180 days"],
            alignments: [.left] + Array(repeating: .right, count: 5),
            rows: shown.map { row in
                [row.group, HumanFormat.count(row.expired), HumanFormat.count(row.returned)]
                    + [row.returned30d, row.returned90d, row.returned180d].map {
                        $0.map { HumanFormat.percent($0) } ?? "—"
                    }
            })
        writer.paragraph(
            (shown.count < months.count
                ? "The latest \(HumanFormat.count(shown.count)) of \(HumanFormat.count(months.count)) months; "
                    + "`\(Returns.fileName)` has them all. "
                : "")
                + "A dash: no expiry of the month has been watched that long yet.")
    }
}
