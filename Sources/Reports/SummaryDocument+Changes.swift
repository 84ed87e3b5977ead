import Analysis

extension SummaryDocument {
    func writeChanges(since previous: Headline, to writer: inout MarkdownWriter) {
        let now = report.headline
        writer.heading("Changes since the previous report")
        var notes = [
            "The previous report is as of \(UTCTime.timestamp(previous.asOf)). Both count every episode that "
                + "started by their as-of time, so the changes mix new episodes with episodes that ended since."
        ]
        if previous.environment != now.environment {
            notes.append(
                "It covers the \(MarkdownWriter.escape(previous.environment)) environment, this one \(environment): "
                    + "the two are not comparable.")
        }
        if previous.asOf >= now.asOf {
            notes.append("Its as-of time is not earlier than this report's.")
        }
        writer.paragraph(notes.joined(separator: " "))

        var rows: [[String]] = [
            countRow("Episodes", previous.all.episodes, now.all.episodes),
            countRow("Ended episodes", previous.all.closed, now.all.closed),
            countRow("Open episodes", previous.all.open, now.all.open),
            rateRow("Recovery rate", previous.all.recoveryRate, now.all.recoveryRate),
            rateRow("Involuntary churn", previous.all.involuntaryChurnRate, now.all.involuntaryChurnRate),
            rateRow("Saved in grace (save rate)", previous.grace.saveRate, now.grace.saveRate),
            rateRow("Recovery rate with a grace period", previous.withGrace.recoveryRate, now.withGrace.recoveryRate),
            rateRow(
                "Recovery rate without a grace period", previous.withoutGrace.recoveryRate,
                now.withoutGrace.recoveryRate),
        ]
        let horizon = RecoveryPace.horizon
        rows.append(
            rateRow(
                "Recovered by day \(horizon) (`cif_recovery`)", previous.cifRecovery(day: horizon),
                now.cifRecovery(day: horizon)))
        rows += revenueRows(previous, now)
        let checks = (now.dataQuality + previous.dataQuality).map(\.check)
        var listed = Set<String>()
        for check in checks where listed.insert(check).inserted {
            let (old, new) = (previous.count(of: check), now.count(of: check))
            if old != 0 || new != 0 { rows.append(countRow("`\(check)`", old, new)) }
        }
        writer.table(
            header: ["Figure", "Previous", "Now", "Change"], alignments: [.left, .right, .right, .right], rows: rows)
    }

    private func countRow(_ figure: String, _ old: Int, _ new: Int) -> [String] {
        [figure, HumanFormat.count(old), HumanFormat.count(new), HumanFormat.signedCount(new - old)]
    }

    private func rateRow(_ figure: String, _ old: Double?, _ new: Double?) -> [String] {
        [figure, HumanFormat.percent(old), HumanFormat.percent(new), HumanFormat.percentagePoints(from: old, to: new)]
    }

    /// One row per currency in either report, in UTF-8 byte order; a currency missing from one counts as 0.
    private func revenueRows(_ previous: Headline, _ now: Headline) -> [[String]] {
        let currencies = Set(previous.revenue.map(\.currency) + now.revenue.map(\.currency))
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return currencies.map { currency in
            let old = previous.revenue.first { $0.currency == currency }.map(\.milliunits) ?? 0
            let new = now.revenue.first { $0.currency == currency }.map(\.milliunits) ?? 0
            return [
                "Revenue saved in grace (\(currency.isEmpty ? "no currency" : currency))",
                HumanFormat.money(old, currency: currency),
                HumanFormat.money(new, currency: currency),
                HumanFormat.moneyChange(from: old, to: new, currency: currency),
            ]
        }
    }
}
