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
            total.recoveriesWithin24h += figures.recoveriesWithin24h
            total.exposure += figures.exposure
            total.windowExposure += figures.windowExposure
        }
        // Entering the schedule is entering its first band (as in message_bands.csv).
        total.episodesEntering = report.bands.first?.episodesEntering ?? 0
        rows.append(["All", "1–\(schedule.bands.last?.lastDay ?? 0)", ""] + Self.bandCells(total))
        writer.table(
            header: [
                "Band", "Days", "Interval", "Episodes reaching it", "Messages", "Recoveries",
                "Recoveries per 1,000 messages", "Recoveries within 24 h of a message", "Expected share", "Lift",
            ],
            alignments: [.right, .right, .right, .right, .right, .right, .right, .right, .right, .right],
            rows: rows)
        let bands = schedule.bands.map { "days \($0.firstDay)–\($0.lastDay) every \($0.intervalHours) h" }
        writer.paragraph(
            """
            **What this can and cannot claim.** The export does not record which billing-issue messages the App \
            Store showed. The messages here are modelled from the schedule (\(bands.joined(separator: ", "))): a \
            scheduled message counts as sent when the episode was still in retry at that time. *Recoveries \
            within 24 h of a message* is the share of the band's recoveries that came less than 24 hours after a \
            scheduled message; *expected share* is the share of the band's time in retry that lies within 24 \
            hours after one, which is what the first share would be if messages made no difference; *lift* is \
            the first divided by the second, so a lift above 1 means recoveries cluster after scheduled messages. \
            These are associations, not causal effects: the App Store's own payment retries, banks and other \
            reminders can follow the same rhythm, and the subscribers still in retry differ from band to band. \
            Use them to spot patterns worth testing, not as the effect of a message.
            """)
    }

    private static func bandCells(_ figures: MessageBands.Figures) -> [String] {
        [
            HumanFormat.count(figures.episodesEntering), HumanFormat.count(figures.messages),
            HumanFormat.count(figures.recoveries),
            figures.recoveriesPer1000Messages.map { ReportTable.Cell.decimal($0, places: 1).formatted }
                ?? HumanFormat.undefined,
            HumanFormat.percent(figures.shareWithin24hOfMessage), HumanFormat.percent(figures.expectedShare),
            figures.lift.map { ReportTable.Cell.decimal($0, places: 2).formatted } ?? HumanFormat.undefined,
        ]
    }
}
