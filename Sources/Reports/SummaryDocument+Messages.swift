import Analysis

extension SummaryDocument {
    /// The hazard ratio of message days against the days around them, per band and pooled. With the app's own log
    /// loaded, which says what was shown (``writeMessageLog(to:)``), only the pooled ratio of the modelled schedule,
    /// in one paragraph: the two sections answer one question, and the log answers it better.
    func writeMessages(to writer: inout MarkdownWriter) {
        let schedule = report.options.schedule
        writer.heading("Billing-issue messages")
        if !report.figures.messageLog.isEmpty {
            let pooled = report.pooledRatio
            writer.paragraph(
                "Modelled from the App Store's schedule rather than the app's log: message days of bands 2–4 against "
                    + "their neighbours, pooled, ratio \(HumanFormat.ratio(pooled?.ratio)) (95% interval "
                    + "\(HumanFormat.ratioInterval(pooled?.interval))); per band in `\(MessageBands.fileName)`. The "
                    + "app's log says what was shown: [\(Self.messageLogHeading)](#billing-messages-the-app-showed).")
            return
        }
        let bands = schedule.bands.map { "days \($0.firstDay)–\($0.lastDay) every \($0.intervalHours) h" }
        let source =
            schedule == .standard
            ? "The App Store shows these messages during billing retry; this report uses the default schedule, from "
                + "Apple's StoreKit documentation of `Message.Reason.billingIssue`: "
            : "The App Store shows these messages during billing retry; this report uses a schedule its user gave, "
                + "not the default from Apple's StoreKit documentation: "
        writer.paragraph(
            source + Self.list(bands)
                + ". Per band, recoveries per episode-day at risk on message days against the days "
                + "just before and after; a ratio above 1: likelier on message days.")
        let compared = zip(schedule.bands, report.bands).compactMap { band, figures in
            figures.dayComparison.map { (band: band, comparison: $0) }
        }
        guard let pooled = report.pooledRatio, !compared.isEmpty else {
            writer.paragraph(
                "No band of the schedule has a message day with days without a message on both sides, so there is "
                    + "nothing to compare.")
            return
        }
        var rows = compared.map { entry in
            [
                String(entry.band.number), "\(entry.band.firstDay)–\(entry.band.lastDay)",
                entry.comparison.messageDays.map(String.init).joined(separator: ", "),
            ] + Self.ratioCells(entry.comparison.hazardRatio)
        }
        rows.append(["All (pooled)", "", ""] + Self.ratioCells(pooled))
        writer.table(
            header: [
                "Band", "Days", "Message days", "Recovered on message days", "Recovered on the days around them",
                "Ratio", "95% interval",
            ],
            alignments: [.right, .right, .left, .right, .right, .right, .right],
            rows: rows)
        writer.paragraph(
            Self.effectSentence(
                bands: compared.map { (band: $0.band.number, ratio: $0.comparison.hazardRatio) }, pooled: pooled))
        let uncompared = zip(schedule.bands, report.bands).filter { $0.1.dayComparison == nil }.map(\.0.number)
        var notes =
            "Each message day is compared with its two neighbours, without the episodes whose grace ends on one of "
            + "the three; the pooled row adds up bands " + Self.list(compared.map { String($0.band.number) })
            + " (Mantel–Haenszel)"
        if !uncompared.isEmpty {
            notes +=
                "; " + (uncompared.count == 1 ? "band " : "bands ") + Self.list(uncompared.map(String.init))
                + " " + (uncompared.count == 1 ? "has" : "have") + " no message-free days to compare with"
        }
        writer.paragraph(notes + ".")
    }

    /// Whether an interval lies wholly above or below 1.
    package static func excludesOne(_ ratio: RateRatio) -> Bool {
        guard let interval = ratio.interval else { return false }
        return interval.low > 1 || interval.high < 1
    }

    /// The one sentence on the effect: which ratios have an interval that excludes 1 (none, or each with its
    /// direction), and why it is an association.
    package static func effectSentence(bands: [(band: Int, ratio: RateRatio)], pooled: RateRatio) -> String {
        let reason =
            "the App Store's own charge attempts may follow the same rhythm, and the messages are modelled from "
            + "the schedule, not observed"
        func described(_ name: String, _ ratio: RateRatio) -> String {
            let direction = (ratio.ratio ?? 1) > 1 ? "more" : "less"
            return "\(name) (ratio \(HumanFormat.ratio(ratio.ratio)), 95% interval "
                + "\(HumanFormat.ratioInterval(ratio.interval)): recoveries \(direction) likely on message days)"
        }
        var found = bands.filter { excludesOne($0.ratio) }.map { described("band \($0.band)", $0.ratio) }
        if excludesOne(pooled) { found.append(described("the pooled ratio", pooled)) }
        guard !found.isEmpty else {
            return "Neither any band nor the pooled ratio has a 95% interval that excludes 1: no clear difference, and "
                + "even a clear one would be an association, not proof that messages bring recoveries, because "
                + reason + "."
        }
        let subject = list(found)
        return subject.prefix(1).uppercased() + subject.dropFirst()
            + (found.count == 1 ? " has" : " have") + " a 95% interval that excludes 1; this is an association, "
            + "not proof that messages bring recoveries, because " + reason + "."
    }

    /// `Recovered on message days … 95% interval` of one ratio.
    private static func ratioCells(_ ratio: RateRatio) -> [String] {
        [
            rateShare(ratio.compared), rateShare(ratio.reference), HumanFormat.ratio(ratio.ratio),
            HumanFormat.ratioInterval(ratio.interval),
        ]
    }

    /// A daily hazard with two decimals and its counts, `2.35% (12 of 511)`.
    static func rateShare(_ rate: EventRate) -> String {
        HumanFormat.percent(rate.rate, places: 2) + " (" + HumanFormat.count(rate.events) + " of "
            + HumanFormat.count(rate.atRisk) + ")"
    }
}
