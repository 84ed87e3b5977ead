import Analysis

extension SummaryDocument {
    package static let messageLogHeading = "Billing messages the app showed"

    /// The app's message log, when one is loaded: per band, the retry days on which the app showed the App Store's
    /// billing-issue sheet against the days it did not, over every episode the log covers; then the experiment arms,
    /// when events name them; and what the comparison can and cannot say.
    func writeMessageLog(to writer: inout MarkdownWriter) {
        let rows = report.figures.messageLog
        guard let all = rows.last else { return }
        writer.heading(Self.messageLogHeading)
        writer.paragraph(
            "From the app's own log of the billing-issue sheet (`churn messages load`): over the "
                + "\(Self.episodes(all.episodes)) it covers (each app's episodes that began between its first and last "
                + "logged event, with an event or without one), recoveries per episode-day at risk on the retry days "
                + "the sheet was shown against the other days; the ratio pools the days by Mantel–Haenszel, with its "
                + "95% interval (`\(ShownDays.fileName)`).")
        writer.table(
            header: [
                "Band", "Days", "Episodes", "Recovered on shown days", "Recovered on other days", "Ratio",
                "95% interval",
            ],
            alignments: [.right, .right, .right, .right, .right, .right, .right],
            rows: rows.map { row in
                [
                    row.band.map(String.init) ?? "All", "\(row.firstDay)–\(row.lastDay)",
                    HumanFormat.count(row.episodes),
                    Self.rateShare(row.shown), Self.rateShare(row.other), HumanFormat.ratio(row.ratio.ratio),
                    HumanFormat.ratioInterval(row.ratio.interval),
                ]
            })
        let outside = report.dataQuality.messageEventOutsideRetry
        writer.paragraph(
            "An association, not an effect: the app decides when the sheet shows (when the customer opens the app, "
                + "or later), and customers who open the app during retry may be likelier to pay anyway."
                + (report.figures.messageExperiment.isEmpty
                    ? " Only arms assigned at random can say what showing the sheet does."
                    : " The arms below can say it, if the app assigned them at random.")
                + (outside > 0
                    ? " \(HumanFormat.count(outside)) logged \(outside == 1 ? "event" : "events") fell in no "
                        + "episode's retry (`message_event_outside_retry` in data quality)."
                    : ""))
        writeMessageExperiment(to: &writer)
    }

    /// The experiment arms against the reference arm.
    private func writeMessageExperiment(to writer: inout MarkdownWriter) {
        let arms = report.figures.messageExperiment
        guard let reference = arms.first else { return }
        let percent = { (value: Double?) in HumanFormat.percent(value) }
        writer.paragraph(
            "Experiment arms, each episode in the arm of its first logged event, against "
                + "`\(MarkdownWriter.escape(reference.arm))` (the first arm by name); the recovery rate over mature "
                + "episodes with its 95% Wilson interval, the difference with its Newcombe interval, the hazard ratio "
                + "over retry days 1–60 (`\(MessageExperiment.fileName)`).")
        writer.table(
            header: [
                "Arm", "Episodes", "Recovered (mature, 95% interval)", "By day 7", "By day 30", "By day 60",
                "Difference (95% interval)", "Hazard ratio (95% interval)",
            ],
            alignments: [.left, .right, .right, .right, .right, .right, .right, .right],
            rows: arms.map { arm in
                [
                    "`\(MarkdownWriter.escape(arm.arm))`", HumanFormat.count(arm.episodes),
                    HumanFormat.percent(arm.matureRecoveryRate, interval: arm.matureRecoveryInterval)
                        + " of \(HumanFormat.count(arm.matureEpisodes))",
                ] + arm.cif.map { percent($0) }
                    + [
                        arm.arm == reference.arm
                            ? "reference"
                            : Self.estimate(arm.difference, arm.differenceInterval) {
                                HumanFormat.percentagePoints(from: 0, to: $0)
                            },
                        arm.arm == reference.arm
                            ? "–"
                            : HumanFormat.ratio(arm.hazardRatio?.ratio) + " ("
                                + HumanFormat.ratioInterval(arm.hazardRatio?.interval) + ")",
                    ]
            })
        writer.paragraph(
            "Causal only if the app put customers in the arms at random: then the difference is what the arm's way "
                + "of showing the sheet did to recoveries. Episodes without a logged event have no arm and are left "
                + "out; until its first event an episode is treated alike in every arm, so this leaves the arms alike.")
    }
}
