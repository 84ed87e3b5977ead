import Analysis

extension SummaryDocument {
    func writeMessages(to writer: inout MarkdownWriter) {
        let schedule = report.options.schedule
        writer.heading("Billing messages by band of the retry schedule")
        var rows: [[String]] = []
        var total = MessageBands.Figures()
        for (band, figures) in zip(schedule.bands, report.bands) {
            rows.append(
                [String(band.number), "\(band.firstDay)–\(band.lastDay)", "\(band.intervalHours) h"]
                    + Self.bandCells(figures))
            total.messages += figures.messages
            total.recoveries += figures.recoveries
            total.exposure += figures.exposure
        }
        // Entering the schedule is entering its first band (as in message_bands.csv).
        total.episodesEntering = report.bands.first?.episodesEntering ?? 0
        rows.append(["All", "1–\(schedule.bands.last?.lastDay ?? 0)", ""] + Self.bandCells(total))
        writer.table(
            header: [
                "Band", "Days", "Interval", "Episodes reaching it", "Messages", "Recoveries",
                "Recoveries per 1,000 messages",
            ],
            alignments: [.right, .right, .right, .right, .right, .right, .right],
            rows: rows)
        let bands = schedule.bands.map { "days \($0.firstDay)–\($0.lastDay) every \($0.intervalHours) h" }
        writer.paragraph(
            """
            **What this can and cannot claim.** The export does not record which billing-issue messages the App \
            Store showed. The messages here are modelled from the schedule (\(bands.joined(separator: ", "))): a \
            scheduled message counts as sent when the episode was still in retry at that time. \
            `\(MessageBands.fileName)` compares the recovery hazard on message days with the days around them \
            (`\(RetryDays.fileName)` has every day). These are associations, not causal effects: the App Store's \
            own payment retries, banks and other reminders can follow the same rhythm, and the subscribers still \
            in retry differ from band to band. Use them to spot patterns worth testing, not as the effect of a \
            message.
            """)
    }

    private static func bandCells(_ figures: MessageBands.Figures) -> [String] {
        [
            HumanFormat.count(figures.episodesEntering), HumanFormat.count(figures.messages),
            HumanFormat.count(figures.recoveries),
            figures.recoveriesPer1000Messages.map { ReportTable.Cell.decimal($0, places: 1).formatted }
                ?? HumanFormat.undefined,
        ]
    }
}
