import Analysis

extension SummaryDocument {
    func writeChanges(since previous: PreviousHeadline, to writer: inout MarkdownWriter) {
        let now = report.headline
        writer.heading("Changes since the previous report")
        var notes = ["The previous report is as of \(UTCTime.minute(previous.asOf))."]
        if previous.environment != now.environment {
            notes.append(
                "It covers the \(MarkdownWriter.escape(previous.environment)) environment, this one \(environment): "
                    + "the two are not comparable.")
        }
        if let database = now.databaseID {
            if previous.databaseID == nil {
                notes.append(
                    "It does not record which database it was made from (it was written before reports did), so it "
                        + "may come from another one.")
            } else if previous.databaseID != database {
                notes.append("It was made from another database: the two are not comparable.")
            }
        }
        if previous.asOf >= now.asOf {
            notes.append("Its as-of time is not earlier than this report's.")
        }
        switch previous {
        case .current(let headline):
            notes.append(
                "Both count every episode that started by their as-of time, so the changes mix new episodes with "
                    + "episodes that ended or matured since.")
            let figures = figureRows(headline, now)
            let rows =
                figures.headline + figures.moved.filter(Self.moved) + moneyRows(headline, now).filter(Self.moved)
                + checkRows(old: headline.dataQuality, new: now.dataQuality, count: headline.count(of:))
                .filter(Self.moved)
            notes.append("The headline figures are always shown; the others only when they moved.")
            writer.paragraph(notes.joined(separator: " "))
            writer.table(
                header: ["Figure", "Previous", "Now", "Change"], alignments: [.left, .right, .right, .right], rows: rows
            )
        case .earlier(let earlier):
            notes.append(
                "It was written with the earlier definitions of the figures (its `\(Headline.fileName)` has format "
                    + "\(earlier.format)): its episodes were counted by other rules, so its episodes, rates and "
                    + "amounts do not mean what this report's do and are not compared. Only the counts that both "
                    + "define alike are: notifications of other environments, family-shared notifications and "
                    + "rejected inputs.")
            writer.paragraph(notes.joined(separator: " "))
            let comparable = now.dataQuality.filter { PreviousHeadline.Earlier.isComparable($0.check) }
            let rows = checkRows(
                old: earlier.dataQuality.filter { PreviousHeadline.Earlier.isComparable($0.check) }, new: comparable,
                count: earlier.count(of:))
            if rows.isEmpty {
                writer.paragraph("Both reports count none of them.")
            } else {
                writer.table(
                    header: ["Figure", "Previous", "Now", "Change"], alignments: [.left, .right, .right, .right],
                    rows: rows)
            }
        }
    }

    /// A row whose previous and current values read the same (to the precision shown): it did not move.
    private static func moved(_ row: [String]) -> Bool {
        row.count < 3 || row[1] != row[2]
    }

    /// The headline's rows, always shown, and the others, shown when they moved.
    private func figureRows(_ previous: Headline, _ now: Headline) -> (headline: [[String]], moved: [[String]]) {
        let (old, new) = (previous.mature.counts, now.mature.counts)
        let day = Report.curveMarkDays.last ?? 60
        let headline = [
            countRow("Episodes", previous.all.episodes, now.all.episodes),
            countRow("Open episodes", previous.all.open, now.all.open),
            countRow("Mature episodes", old.episodes, new.episodes),
            rateRow("Recovered (mature episodes)", old.recoveryRate, new.recoveryRate),
            rateRow("Involuntary churn (mature episodes)", old.expiredRate, new.expiredRate),
        ]
        return (
            headline,
            [
                rateRow("Recovered of ended episodes", previous.all.recoveryRate, now.all.recoveryRate),
                rateRow("Saved in grace (save rate)", previous.grace.saveRate, now.grace.saveRate),
                rateRow(
                    "Recovered of ended episodes with a grace period", previous.withGrace.recoveryRate,
                    now.withGrace.recoveryRate),
                rateRow(
                    "Recovered of ended episodes without a grace period", previous.withoutGrace.recoveryRate,
                    now.withoutGrace.recoveryRate),
                rateRow(
                    "Recovered by day \(day) (recovery curve)", previous.cifRecovery(day: day),
                    now.cifRecovery(day: day)),
            ]
        )
    }

    private func countRow(_ figure: String, _ old: Int, _ new: Int) -> [String] {
        [figure, HumanFormat.count(old), HumanFormat.count(new), HumanFormat.signedCount(new - old)]
    }

    private func rateRow(_ figure: String, _ old: Double?, _ new: Double?) -> [String] {
        [figure, HumanFormat.percent(old), HumanFormat.percent(new), HumanFormat.percentagePoints(from: old, to: new)]
    }

    /// Per currency in either report (UTF-8 byte order), each amount that is not 0 in both; a currency missing from
    /// one report counts as 0 there.
    private func moneyRows(_ previous: Headline, _ now: Headline) -> [[String]] {
        let currencies = Set(previous.money.map(\.currency) + now.money.map(\.currency))
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let amounts: [(String, (Headline.Money) -> Int64?)] = [
            ("Recovered", \.recoveredMilliunits), ("Saved in grace", \.savedInGraceMilliunits),
            ("Lost to expiry", \.lostMilliunits), ("At risk now", \.atRiskMilliunits),
        ]
        return currencies.flatMap { currency in
            let empty = Headline.Money(currency: currency)
            let (old, new) = (previous.money(in: currency) ?? empty, now.money(in: currency) ?? empty)
            return amounts.filter { $0.1(old) != 0 || $0.1(new) != 0 }.map { name, amount in
                [
                    "\(name) (\(currency.isEmpty ? "no currency" : currency))",
                    HumanFormat.money(amount(old), currency: currency),
                    HumanFormat.money(amount(new), currency: currency),
                    HumanFormat.moneyChange(from: amount(old), to: amount(new), currency: currency),
                ]
            }
        }
    }

    /// Each data-quality check of either report, in order, that is not 0 in both.
    private func checkRows(old: [Headline.Check], new: [Headline.Check], count: (String) -> Int) -> [[String]] {
        var listed = Set<String>()
        var rows: [[String]] = []
        for check in (new + old).map(\.check) where listed.insert(check).inserted {
            let (before, after) = (count(check), new.first { $0.check == check }?.count ?? 0)
            if before != 0 || after != 0 { rows.append(countRow("`\(check)`", before, after)) }
        }
        return rows
    }
}
