import Analysis

extension SummaryDocument {
    package static let messageLogHeading = "Billing messages the app showed"

    /// The app's message log, when one is loaded: over days 1–60 of every episode the log covers, the recoveries on
    /// the retry days the app showed the App Store's billing-issue sheet against the other days (per band in the
    /// file); then the experiment arms, when events name them; and what each comparison can and cannot say.
    func writeMessageLog(to writer: inout MarkdownWriter) {
        guard let all = report.figures.messageLog.last else { return }
        writer.heading(Self.messageLogHeading)
        let outside = report.dataQuality.messageEventOutsideRetry
        writer.paragraph(
            "From the app's log of the billing-issue sheet, over the "
                + "\(Self.episodes(all.episodes)) it covers: recovered on the retry days the sheet was shown "
                + "\(Self.rateShare(all.shown)) a day, on the other days \(Self.rateShare(all.other)); ratio "
                + "\(HumanFormat.ratio(all.ratio.ratio)) (95% interval \(HumanFormat.ratioInterval(all.ratio.interval)); "
                + "per band in `\(ShownDays.fileName)`). An association, not an effect: the app decides when the sheet "
                + "shows, and customers who open the app during retry may be likelier to pay anyway."
                + (outside > 0
                    ? " \(HumanFormat.count(outside)) logged \(outside == 1 ? "event" : "events") fell in no "
                        + "episode's retry (data quality)."
                    : ""))
        writeMessageExperiment(to: &writer)
    }

    /// The experiment arms against the reference arm.
    private func writeMessageExperiment(to writer: inout MarkdownWriter) {
        let arms = report.figures.messageExperiment
        guard let reference = arms.first else { return }
        writer.table(
            header: [
                "Arm", "Episodes", "Recovered (mature, 95% interval)", "Difference (95% interval)",
                "Hazard ratio (95% interval)",
            ],
            alignments: [.left, .right, .right, .right, .right],
            rows: arms.map { arm in
                let isReference = arm.arm == reference.arm
                return [
                    "`\(MarkdownWriter.escape(arm.arm))`", HumanFormat.count(arm.episodes),
                    HumanFormat.percent(arm.matureRecoveryRate, interval: arm.matureRecoveryInterval)
                        + " of \(HumanFormat.count(arm.matureEpisodes))",
                    isReference
                        ? "reference"
                        : Self.estimate(arm.difference, arm.differenceInterval) {
                            HumanFormat.percentagePoints(from: 0, to: $0)
                        },
                    isReference
                        ? "–"
                        : HumanFormat.ratio(arm.hazardRatio?.ratio) + " ("
                            + HumanFormat.ratioInterval(arm.hazardRatio?.interval) + ")",
                ]
            })
        writer.paragraph(
            "Each episode is in the arm of its first logged event; the recovery curve per arm is in "
                + "`\(MessageExperiment.fileName)`. Causal only if the app put customers in the arms at random.")
    }
}
