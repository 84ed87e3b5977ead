import Analysis

extension SummaryDocument {
    static let graceChangeHeading = "A grace change, evaluated"

    /// Per change of an app's grace setting: when, from which setting to which, the treated and comparison products,
    /// each figure before and after with the difference in differences and its interval, the placebo, and the
    /// assumption in one sentence. Written only when the report found or was told of a change.
    func writeGraceChanges(to writer: inout MarkdownWriter) {
        let changes = report.figures.graceChanges
        guard !changes.isEmpty else { return }
        writer.heading(Self.graceChangeHeading)
        writer.paragraph(
            "Found in each product's grace length month by month, or stated with `--grace-change`: the products that "
                + "changed against those that held, over mature episodes started 90 days either side; 95% bootstrap "
                + "intervals; the placebo is the same estimate 180 days earlier (`\(GraceChange.fileName)`).")
        for change in changes {
            let app = change.bundleId.isEmpty ? "(no bundle id)" : "`\(MarkdownWriter.escape(change.bundleId))`"
            let settings =
                "\(Self.graceSettingName(change.settingBefore)) → \(Self.graceSettingName(change.settingAfter))"
            let products = change.products.isEmpty ? "no product" : Self.list(change.products.map(Self.code))
            let comparison =
                change.comparison.isEmpty
                ? "no product held its length, so each figure is the plain before/after difference"
                : "compared with " + Self.list(change.comparison.map(Self.code))
            writer.paragraph(
                "**\(app), \(UTCTime.date(change.changeDate))**: \(settings). Changed: \(products) "
                    + "(\(Self.episodes(change.episodesBefore)) before, \(HumanFormat.count(change.episodesAfter)) "
                    + "after); \(comparison).")
            writer.table(
                header: [
                    "Figure", "Before", "After", "Comparison before", "Comparison after", "Estimate (95% interval)",
                    "Placebo (95% interval)",
                ],
                alignments: [.left, .right, .right, .right, .right, .right, .right],
                rows: change.figures.map { figure in
                    let format = Self.graceChangeFormat(figure.name)
                    return [
                        Self.graceChangeLabel(figure.name), format(figure.before), format(figure.after),
                        format(figure.comparisonBefore), format(figure.comparisonAfter),
                        Self.estimate(figure.did, figure.interval, format: Self.graceChangeDifference(figure.name)),
                        Self.estimate(
                            figure.placeboDid, figure.placeboInterval, format: Self.graceChangeDifference(figure.name)),
                    ]
                })
        }
        let noPlacebo = changes.contains { $0.figures.allSatisfy { $0.placeboDid == nil } }
        writer.paragraph(
            "*The assumption:* without the change, the changed products would have moved as the comparison did; a "
                + "placebo far from 0 says they did not before."
                + (noPlacebo ? " No placebo (–) where the data do not reach 270 days back." : ""))
    }

    /// `16 days`, `off`, or `an unclear setting` when no one setting explains the lengths.
    static func graceSettingName(_ setting: String?) -> String {
        guard let setting else { return "an unclear setting" }
        return setting == GraceWhatIf.Setting.off.name ? "off" : "\(setting) days"
    }

    static func code(_ text: String) -> String {
        "`\(MarkdownWriter.escape(text))`"
    }

    static func graceChangeLabel(_ name: GraceChange.Figure.Name) -> String {
        switch name {
        case .recovered: return "Recovered"
        case .paidDaysKeptPerEpisode: return "Paid days kept per episode"
        case .freeAccessDaysPerEpisode: return "Free access days per episode"
        }
    }

    /// A figure's value: a percentage for the recovered share, days with two decimals otherwise.
    static func graceChangeFormat(_ name: GraceChange.Figure.Name) -> (Double?) -> String {
        switch name {
        case .recovered: return { HumanFormat.percent($0) }
        default: return { value in value.map { ReportTable.Cell.decimal($0, places: 2).formatted } ?? "–" }
        }
    }

    /// A difference: percentage points for the recovered share, signed days otherwise.
    static func graceChangeDifference(_ name: GraceChange.Figure.Name) -> (Double?) -> String {
        switch name {
        case .recovered: return { HumanFormat.percentagePoints(from: 0, to: $0) }
        default:
            return { value in
                guard let value else { return "–" }
                let text = ReportTable.Cell.decimal(value, places: 2).formatted
                return text.hasPrefix("-") || text.allSatisfy({ "0.".contains($0) }) ? text : "+" + text
            }
        }
    }

    /// `+1.2 pp (−0.4 pp to +2.9 pp)`, or `–` when undefined.
    static func estimate(_ value: Double?, _ interval: ConfidenceInterval?, format: (Double?) -> String) -> String {
        guard value != nil else { return "–" }
        guard let interval else { return format(value) }
        return format(value) + " (" + format(interval.low) + " to " + format(interval.high) + ")"
    }
}
