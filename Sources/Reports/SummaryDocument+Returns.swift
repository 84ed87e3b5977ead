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
            "Of the \(HumanFormat.count(all.expired)) customers billing retry lost (expired episodes, inferred "
                + "expiries included), \(HumanFormat.count(all.returned)) came back by the as-of time with the same "
                + "subscription or another of theirs (same Apple Account, app account token or a migrated "
                + "subscription). Back within " + (shares.isEmpty ? "30 days: not yet known" : Self.list(shares))
                + ", with 95% confidence intervals: estimates counting each customer only while watched.")
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
                ? "The latest \(HumanFormat.count(shown.count)) of \(HumanFormat.count(months.count)) months "
                    + "(`\(Returns.fileName)` has them all); a dash: "
                : "A dash: ")
                + "no expiry of the month has been watched that long yet.")
    }
}
