import Analysis

extension SummaryDocument {
    /// How the chances the method gave 61 days ago compare with what became of those episodes
    /// (`forecast_check.csv`).
    func writeForecastCheck(to writer: inout MarkdownWriter) {
        let check = report.forecastCheck
        let total = check.total
        let then = UTCTime.minute(check.checkTime)
        writer.heading("How well the forecast did")
        guard total.episodes > 0 else {
            writer.paragraph(
                check.episodesThen == 0
                    ? "61 days before the as-of time (\(then)) the data held no episode yet, so the chances of "
                        + "recovery cannot be checked against this app's own history: `\(ForecastCheck.fileName)` "
                        + "holds only its total row."
                    : "61 days before the as-of time (\(then)) no episode was open, so there was no chance of "
                        + "recovery to check: `\(ForecastCheck.fileName)` holds only its total row.")
            return
        }
        writer.paragraph(
            "61 days ago (as of \(then)), \(Self.episodes(total.episodes)) \(total.episodes == 1 ? "was" : "were") "
                + "open; this method expected " + ReportTable.Cell.decimal(total.expected, places: 1).formatted
                + " of them to recover by "
                + "day 60; \(HumanFormat.count(total.observed)) did (share \(HumanFormat.percent(total.observedShare)), "
                + "95% confidence interval \(HumanFormat.percentInterval(total.interval))).")
        let bands = check.bands.filter { $0.episodes > 0 }
        let within = bands.filter(Self.expectedIsWithinInterval).count
        var text =
            "By tenths of the chance (`\(ForecastCheck.fileName)`), the expected count lies within the 95% "
            + "confidence interval of the observed one in \(HumanFormat.count(within)) of "
            + "\(HumanFormat.count(bands.count)) \(bands.count == 1 ? "tenth" : "tenths") holding episodes."
        if check.unmatched > 0 {
            text +=
                " \(Self.episodes(check.unmatched)) open then \(check.unmatched == 1 ? "is" : "are") no longer "
                + "among the episodes built now and \(check.unmatched == 1 ? "is" : "are") left out."
        }
        writer.paragraph(
            text + " A calibration that held then need not hold now: customers, prices and payment methods change.")
    }

    /// Whether the expected recoveries lie within the observed count's 95% confidence interval (the episodes times
    /// the share's Wilson bounds).
    static func expectedIsWithinInterval(_ row: ForecastCheck.Row) -> Bool {
        guard let interval = row.interval else { return false }
        let n = Double(row.episodes)
        return row.expected >= interval.low * n && row.expected <= interval.high * n
    }
}
