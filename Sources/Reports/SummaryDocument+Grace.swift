import Analysis

extension SummaryDocument {
    /// Grace-period saves with their denominators, and grace against no grace.
    func writeGrace(to writer: inout MarkdownWriter) {
        let grace = report.grace
        writer.heading("Grace period")
        guard grace.graceEpisodes > 0 else {
            writer.paragraph("No episode had a billing grace period, so there is nothing saved in grace.")
            writeGraceComparison(to: &writer)
            return
        }
        let inGrace = grace.graceEpisodes - grace.decided - report.graceEndUnknown
        writer.paragraph(
            "**Saved in grace: \(Self.share(grace.savedInGrace, of: grace.decided))** of the grace-period episodes "
                + "whose result in grace is known: paid before grace ended, so the subscriber never lost access.")
        var denominators =
            "Of the \(Self.episodes(grace.graceEpisodes)) with a grace period, "
            + "\(HumanFormat.count(grace.savedInGrace)) were saved in grace, \(HumanFormat.count(grace.recoveredAfterGrace)) "
            + "recovered after it, \(HumanFormat.count(grace.expired)) expired, \(HumanFormat.count(grace.cancelled)) "
            + "cancelled, \(HumanFormat.count(grace.other)) ended otherwise and \(HumanFormat.count(grace.open)) still "
            + "open. "
        var leftOut: [String] = []
        if inGrace > 0 { leftOut.append("\(HumanFormat.count(inGrace)) still inside their grace period") }
        if report.graceEndUnknown > 0 {
            leftOut.append(
                "\(HumanFormat.count(report.graceEndUnknown)) whose grace end is not known (see data quality)")
        }
        denominators +=
            leftOut.isEmpty
            ? "The save rate counts them all: each has ended or its grace period is over"
            : "The save rate leaves out " + Self.list(leftOut)
        writer.paragraph(denominators + ". Per cohort: `\(GracePeriod.fileName)`.")
        writeGraceComparison(to: &writer)
    }

    private func writeGraceComparison(to writer: inout MarkdownWriter) {
        writer.table(
            header: ["Group"] + Self.groupHeader,
            alignments: [.left] + Self.groupAlignments,
            rows: [
                ["With a grace period"] + Self.groupCells(report.withGrace),
                ["Without a grace period"] + Self.groupCells(report.withoutGrace),
            ])
        writer.paragraph(
            "This is an association: apps and products with a grace period differ in other ways (price, country, "
                + "audience), so the gap does not tell what turning grace on or off would do.")
    }
}
