import Analysis

/// `recovery_hazard.svg`: the daily recovery hazard of `retry_days.csv`, days 1…60, as a line with its 95% Wilson
/// interval shaded, dots on the message days, and a dashed line on the day holding the grace end of each grace
/// length the report marks (``Report/graceLengths``).
///
/// Day d is drawn in the middle of its 24 hours, at d − ½. A day with nobody at risk has no hazard: the line and
/// the band break there. The percentage axis is fitted to the highest upper bound (``PercentAxis``), so the whole
/// interval is always shown.
package struct RecoveryHazardChart: Sendable {
    package static let fileName = "recovery_hazard.svg"
    package static let height = 490

    package let days: [RetryDays.Day]
    package let graceLengths: [Report.GraceLength]
    package let environment: String
    package let asOf: Int64

    /// The chart of a life table (`RetryDays.lifeTable`, days 1…60).
    package init(days: [RetryDays.Day], graceLengths: [Report.GraceLength], environment: String, asOf: Int64) {
        self.days = days.filter { RetryDays.days.contains($0.day) }
        self.graceLengths = graceLengths.filter { RetryDays.days.contains($0.day) }
        self.environment = environment
        self.asOf = asOf
    }

    /// The chart of a report's life table.
    package init(report: Report) {
        self.init(
            days: report.retryDays, graceLengths: report.graceLengths, environment: report.options.environment,
            asOf: report.asOf)
    }

    private static let dayTicks = [1, 10, 20, 30, 40, 50, 60]

    /// The y-axis: fitted to the highest upper bound of the interval.
    package var axis: PercentAxis {
        PercentAxis(coveringMaximum: days.compactMap { $0.interval?.high }.max() ?? 0)
    }

    /// The SVG document, ending in a newline.
    package var svg: String {
        let lastDay = Double(RetryDays.days.upperBound)
        let plot = SVGChart.Plot(top: 110, bottom: 376, firstDay: 0, lastDay: lastDay, axis: axis)
        var body = SVGChart.percentAxis(plot, title: "Recovered that day (share of episodes at risk)")
        for day in Self.dayTicks {
            let gridX = plot.x(Double(day) - 0.5)
            body.append(SVGChart.line(x1: gridX, y1: plot.top, x2: gridX, y2: plot.bottom, color: SVGChart.gridColor))
        }
        body += interval(plot)
        body += graceEnds(plot)
        body += hazard(plot)
        body += SVGChart.dayAxis(
            plot, days: Self.dayTicks, position: { Double($0) - 0.5 }, title: "Day of billing retry")
        body += legend(plot)
        return SVGChart.document(
            height: Self.height, title: "Chance of recovery, day by day",
            subtitle: "Of the episodes still in retry on a day, the share that recovered that day.",
            environment: environment, asOf: asOf, description: description, body: body)
    }

    private var description: String {
        let messageDays = days.filter(\.isMessageDay).map { String($0.day) }
        let grace = graceLengths.map(\.endLabel)
        return "Daily recovery hazard (retry_days.csv) in \(environment) as of \(UTCTime.minute(asOf)), days 1 to "
            + "60, with its 95% Wilson interval; message days: " + messageDays.joined(separator: ", ")
            + (grace.isEmpty ? "" : "; " + grace.joined(separator: ", ")) + "."
    }

    /// Runs of consecutive days with a hazard.
    private var segments: [[RetryDays.Day]] {
        var runs: [[RetryDays.Day]] = []
        var run: [RetryDays.Day] = []
        for day in days {
            if day.hazard != nil, run.last.map({ $0.day + 1 == day.day }) ?? true {
                run.append(day)
            } else {
                if !run.isEmpty { runs.append(run) }
                run = day.hazard != nil ? [day] : []
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }

    private func position(_ day: RetryDays.Day) -> Double {
        Double(day.day) - 0.5
    }

    private func interval(_ plot: SVGChart.Plot) -> [String] {
        segments.map { run in
            let bounds = run.compactMap { day in day.interval.map { (x: position(day), interval: $0) } }
            // A day on its own is drawn as a short bar, so that it stays visible.
            let offsets = bounds.count == 1 ? [-0.3, 0.3] : [0.0]
            let upper = bounds.flatMap { entry in
                offsets.map { (x: plot.x(entry.x + $0), y: plot.y(entry.interval.high)) }
            }
            let lower = bounds.reversed().flatMap { entry in
                offsets.reversed().map { (x: plot.x(entry.x + $0), y: plot.y(entry.interval.low)) }
            }
            return #"<polygon points="\#(SVGChart.points(upper + lower))" fill="\#(SVGChart.intervalFill)" "#
                + #"fill-opacity="0.7"/>"#
        }
    }

    private func hazard(_ plot: SVGChart.Plot) -> [String] {
        var lines: [String] = []
        for run in segments where run.count > 1 {
            let coordinates = run.map { (x: plot.x(position($0)), y: plot.y($0.hazard ?? 0)) }
            lines.append(
                #"<polyline points="\#(SVGChart.points(coordinates))" fill="none" stroke="\#(SVGChart.curveColor)" "#
                    + #"stroke-width="2" stroke-linejoin="round"/>"#)
        }
        for day in days {
            guard let hazard = day.hazard else { continue }
            let center = (x: SVGChart.f(plot.x(position(day))), y: SVGChart.f(plot.y(hazard)))
            lines.append(
                day.isMessageDay
                    ? #"<circle cx="\#(center.x)" cy="\#(center.y)" r="3.5" fill="\#(SVGChart.curveColor)"/>"#
                    : #"<circle cx="\#(center.x)" cy="\#(center.y)" r="2" fill="\#(SVGChart.curveColor)"/>"#)
        }
        return lines
    }

    /// A dashed line in the middle of the day holding each grace end. Each label, centred on its line but kept
    /// inside the plot's width, goes on the lowest of four rows above the plot where it does not run into another
    /// (the highest when none is free).
    private func graceEnds(_ plot: SVGChart.Plot) -> [String] {
        var lines: [String] = []
        var placed: [SVGChart.LabelBox] = []
        for length in graceLengths {
            let lineX = plot.x(Double(length.day) - 0.5)
            lines.append(SVGChart.graceEndLine(plot, x: lineX))
            let width = SVGChart.textWidth(length.endLabel, size: 11)
            let start = max(plot.left, min(lineX - width / 2, plot.right - width))
            let rows = (0..<4).map { row in
                SVGChart.LabelBox(length.endLabel, size: 11, left: start, baseline: plot.top - 8 - 13 * Double(row))
            }
            if let box = SVGChart.place(rows, avoiding: &placed) {
                lines.append(SVGChart.graceLabel(length.endLabel, in: box))
            }
        }
        return lines
    }

    private func legend(_ plot: SVGChart.Plot) -> [String] {
        let top = plot.bottom + 62
        var lines = [
            SVGChart.rect(
                x: plot.left, y: top - 7, width: 24, height: 14, fill: SVGChart.intervalFill,
                extra: #" fill-opacity="0.7""#),
            SVGChart.line(
                x1: plot.left, y1: top, x2: plot.left + 24, y2: top, color: SVGChart.curveColor,
                extra: #" stroke-width="2""#),
            SVGChart.text(
                "Daily recovery hazard (recoveries ÷ episodes at risk that day); shaded: its 95% interval",
                x: plot.left + 32, y: top + 4, size: 12),
            #"<circle cx="\#(SVGChart.f(plot.left + 12))" cy="\#(SVGChart.f(top + 18))" r="3.5" "#
                + #"fill="\#(SVGChart.curveColor)"/>"#,
            SVGChart.text(
                "Large dot: a billing message is scheduled that day (modelled, not observed)", x: plot.left + 32,
                y: top + 22, size: 12),
        ]
        if !graceLengths.isEmpty {
            lines += SVGChart.graceLegend(
                plot, y: top + 36,
                explanation: "The day a grace period of that length ends; those episodes count nowhere on that day")
        }
        return lines
    }
}
