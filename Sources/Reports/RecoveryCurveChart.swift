import Analysis

/// `recovery_curve.svg`: the recovery curve (`cif_recovery`, days 0…60) as a line, on a percentage axis fitted to
/// the curve's height plus a tenth (``PercentAxis``), with the message schedule's bands shaded alternately and
/// labelled with their interval (cut at day 60), a dashed line where each grace length the report marks ends
/// (``Report/graceLengths``) with the share recovered by then, and the day-60 value written at the line's end.
package struct RecoveryCurveChart: Sendable {
    package static let fileName = "recovery_curve.svg"
    package static let height = 480

    package let points: [RecoveryCurve.Point]
    package let schedule: MessageSchedule
    package let graceLengths: [Report.GraceLength]
    package let environment: String
    package let asOf: Int64
    /// The report also holds monthly plans with a 12-month commitment, whose curve is not this one.
    package let hasCommitments: Bool

    /// The chart of `points` (`RecoveryCurve.points(episodes:asOf:)`, days 1…60), marking the ends of
    /// `graceLengths` that fall within days 1…60.
    package init(
        points: [RecoveryCurve.Point], schedule: MessageSchedule, graceLengths: [Report.GraceLength] = [],
        environment: String, asOf: Int64, hasCommitments: Bool = false
    ) {
        self.hasCommitments = hasCommitments
        self.points = points.filter { $0.day >= 1 && $0.day <= Self.days }
        self.schedule = schedule
        self.graceLengths = graceLengths.filter { RetryDays.days.contains($0.day) }
        self.environment = environment
        self.asOf = asOf
    }

    /// The chart of a report's curve.
    package init(report: Report) {
        self.init(
            points: report.curve, schedule: report.options.schedule, graceLengths: report.graceLengths,
            environment: report.options.environment, asOf: report.asOf,
            hasCommitments: !report.figures.recoveryCurveCommitment.isEmpty)
    }

    private static let days = 60
    private static let dayTicks = [0, 10, 20, 30, 40, 50, 60]

    /// Room above the curve's highest point, as a share of it, for the label at the line's end.
    package static let headroom = 0.1

    /// The y-axis: fitted to the highest point of the curve plus ``headroom``.
    package var axis: PercentAxis {
        PercentAxis(coveringMaximum: (points.map(\.cifRecovery).max() ?? 0) * (1 + Self.headroom))
    }

    /// The SVG document, ending in a newline.
    package var svg: String {
        let plot = SVGChart.Plot(top: 96, bottom: 372, firstDay: 0, lastDay: Double(Self.days), axis: axis)
        var body = bands(plot)
        body += SVGChart.percentAxis(plot, title: "Recovered (share of episodes)")
        for day in Self.dayTicks.dropFirst() {
            let gridX = plot.x(Double(day))
            body.append(SVGChart.line(x1: gridX, y1: plot.top, x2: gridX, y2: plot.bottom, color: SVGChart.gridColor))
        }
        let end = endLabel(plot)
        let grace = graceEnds(plot, avoiding: end?.box)
        body += grace.lines
        body += curve(plot, endLabel: end)
        body += grace.marks
        body += SVGChart.dayAxis(plot, days: Self.dayTicks, position: { Double($0) }, title: "Day of billing retry")
        body += legend(plot)
        return SVGChart.document(
            height: Self.height, title: "Recovery curve",
            subtitle: "Share of the billing-retry episodes recovered by each day of retry.", environment: environment,
            asOf: asOf, description: description, body: body)
    }

    private var description: String {
        let marks = graceLengths.map(markLabel) + ["day \(Self.days): " + HumanFormat.percent(cifRecovery(Self.days))]
        return "Cumulative incidence of recovery (cif_recovery) in \(environment) as of \(UTCTime.minute(asOf)); "
            + marks.joined(separator: ", ") + "."
    }

    private func cifRecovery(_ day: Int) -> Double {
        Report.cifRecovery(points, byDay: day)
    }

    /// `16-day grace ends on day 17: 34.7%`, the share recovered by the end of a grace period of that length.
    private func markLabel(_ length: Report.GraceLength) -> String {
        length.endLabel + ": " + HumanFormat.percent(cifRecovery(length.days))
    }

    /// For each grace length, a dashed line at its end (day L's right edge, where `cif_recovery` of day L is
    /// drawn), and the marks drawn over the curve: a dot where the curve crosses the line and the label
    /// `L-day grace ends on day L+1: x%`.
    ///
    /// The curve never falls, so nothing of it lies below and to the right of a dot, nor above and to the left of
    /// it: the label takes the first row there (below first) that stays in the plot and runs into no other label
    /// or the day-60 label; failing that, a row at the top of the plot.
    private func graceEnds(
        _ plot: SVGChart.Plot, avoiding endLabel: SVGChart.LabelBox?
    ) -> (lines: [String], marks: [String]) {
        var lines: [String] = []
        var marks: [String] = []
        var placed = endLabel.map { [$0] } ?? []
        let rows = (0..<4).map(Double.init)
        for length in graceLengths {
            let x = plot.x(Double(length.days))
            let y = plot.y(cifRecovery(length.days))
            lines.append(SVGChart.graceEndLine(plot, x: x))
            marks.append(
                #"<circle cx="\#(SVGChart.f(x))" cy="\#(SVGChart.f(y))" r="3" fill="\#(SVGChart.graceColor)"/>"#)
            let text = markLabel(length)
            let below = rows.map { SVGChart.LabelBox(text, size: 11, left: x + 5, baseline: y + 15 + 13 * $0) }
            let above = rows.map { SVGChart.LabelBox(text, size: 11, right: x - 5, baseline: y - 7 - 13 * $0) }
            let width = SVGChart.textWidth(text, size: 11)
            let start = max(plot.left, min(x - width / 2, plot.right - width))
            let top = rows.map { SVGChart.LabelBox(text, size: 11, left: start, baseline: plot.top + 14 + 13 * $0) }
            let beside = (below + above).filter { $0.fits(plot, top: plot.top + 2, bottom: plot.bottom - 2) }
            if let box = SVGChart.place(beside + top, avoiding: &placed) {
                marks.append(SVGChart.graceLabel(text, in: box, halo: true))
            }
        }
        return (lines, marks)
    }

    /// The day-60 value and where it goes: above the line's end. The curve never falls, so nothing of it lies
    /// above and to the left of its end, and the axis's headroom keeps the label inside the plot. Only a curve near
    /// 100 %, where the axis stops, leaves no room there: its label goes below the line.
    private func endLabel(_ plot: SVGChart.Plot) -> (text: String, box: SVGChart.LabelBox)? {
        guard let last = points.last else { return nil }
        let endX = plot.x(Double(last.day))
        let endY = plot.y(last.cifRecovery)
        let labelY = endY - 9 - 12 < plot.top ? endY + 18 : endY - 9
        let text = HumanFormat.percent(last.cifRecovery) + " by day \(last.day)"
        // Bold 12 px text is about as wide as plain 13 px text.
        return (text, SVGChart.LabelBox(text, size: 13, right: endX - 4, baseline: labelY))
    }

    private func bands(_ plot: SVGChart.Plot) -> [String] {
        var lines: [String] = []
        for band in schedule.bands where band.firstDay <= Self.days {
            let first = Double(band.firstDay - 1)
            let last = Double(min(band.lastDay, Self.days))
            if band.number % 2 == 1 {
                lines.append(
                    SVGChart.rect(
                        x: plot.x(first), y: plot.top, width: plot.x(last) - plot.x(first),
                        height: plot.bottom - plot.top, fill: SVGChart.bandFill))
            }
            if band.firstDay > 1 {
                lines.append(
                    SVGChart.line(
                        x1: plot.x(first), y1: plot.top, x2: plot.x(first), y2: plot.bottom, color: SVGChart.bandEdge,
                        extra: #" stroke-dasharray="4 3""#))
            }
            lines.append(
                SVGChart.text(
                    "\(band.intervalHours) h", x: (plot.x(first) + plot.x(last)) / 2, y: plot.top - 8, size: 11,
                    anchor: "middle"))
        }
        lines.append(SVGChart.text("Message interval:", x: plot.left, y: plot.top - 26, size: 11, weight: "bold"))
        return lines
    }

    private func curve(_ plot: SVGChart.Plot, endLabel: (text: String, box: SVGChart.LabelBox)?) -> [String] {
        let coordinates =
            [(x: plot.x(0), y: plot.y(0))]
            + points.map { (x: plot.x(Double($0.day)), y: plot.y($0.cifRecovery)) }
        var lines = [
            #"<polyline points="\#(SVGChart.points(coordinates))" fill="none" stroke="\#(SVGChart.curveColor)" "#
                + #"stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>"#
        ]
        if let last = points.last {
            let endX = plot.x(Double(last.day))
            let endY = plot.y(last.cifRecovery)
            lines.append(
                #"<circle cx="\#(SVGChart.f(endX))" cy="\#(SVGChart.f(endY))" r="3.5" "#
                    + #"fill="\#(SVGChart.curveColor)"/>"#)
        }
        if let endLabel {
            lines.append(
                SVGChart.text(
                    endLabel.text, x: endLabel.box.right, y: endLabel.box.baseline, size: 12, weight: "bold",
                    anchor: "end", color: SVGChart.curveColor))
        }
        return lines
    }

    private func legend(_ plot: SVGChart.Plot) -> [String] {
        let top = plot.bottom + 62
        let grace =
            graceLengths.isEmpty
            ? []
            : SVGChart.graceLegend(
                plot, y: top + 36,
                explanation: "The end of a grace period of that length, with the share recovered by then")
        return [
            SVGChart.line(
                x1: plot.left, y1: top, x2: plot.left + 24, y2: top, color: SVGChart.curveColor,
                extra: #" stroke-width="2.5""#),
            SVGChart.text(
                (hasCommitments
                    ? "Recovered share of the standard plans' episodes (12-month commitments: their own CSV file)"
                    : "Recovered share of all episodes (cif_recovery; open episodes count for as long as they are "
                        + "observed)"),
                x: plot.left + 32, y: top + 4, size: 12),
            SVGChart.rect(
                x: plot.left + 4, y: top + 16 - 7, width: 16, height: 14, fill: SVGChart.bandFill,
                extra: #" stroke="\#(SVGChart.bandEdge)""#),
            SVGChart.text(
                "Bands of the message schedule; the label is the interval between billing messages",
                x: plot.left + 32, y: top + 20, size: 12),
        ] + grace
    }
}
