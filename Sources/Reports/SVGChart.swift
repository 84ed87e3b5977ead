import Analysis

/// The recovery curve as a self-contained SVG line chart (`recovery_curve.svg`).
///
/// Fixed size, no scripts, fonts or external references; coordinates with 2 decimals, so the same curve gives the
/// same bytes. It shows `cif_recovery` for days 0…60 on a 0–100 % axis, the bands of the message schedule as
/// shaded columns labelled with their message interval, gridlines at days 3/16/28/60 and every 20 %, and Apple's
/// published pace (40/75/90 % of recoveries by day 3/16/28) as markers scaled to the curve's height at day 60.
package enum SVGChart {
    package static let fileName = "recovery_curve.svg"
    package static let width = 760
    package static let height = 490

    private static let plot = (left: 72.0, right: 736.0, top: 96.0, bottom: 372.0)
    private static let days = 60
    private static let dayTicks = [0, 3, 16, 28, 60]
    private static let percentTicks = [0, 20, 40, 60, 80, 100]
    private static let curveColor = "#1b5fae"
    private static let referenceColor = "#c45a00"
    private static let bandFill = "#edf2f9"
    private static let gridColor = "#dcdcdc"
    private static let axisColor = "#333333"
    private static let textColor = "#222222"
    private static let background = "#ffffff"
    private static let bandEdge = "#9fb3cf"

    /// The chart.
    ///
    /// - Parameters:
    ///   - points: `RecoveryCurve.points(episodes:asOf:)`, days 1…60.
    ///   - schedule: the message schedule whose bands are shaded (cut at day 60).
    ///   - environment: shown in the subtitle.
    ///   - asOf: the report's as-of time, shown in the subtitle.
    /// - Returns: the SVG document, ending in a newline.
    package static func recoveryCurve(
        _ points: [RecoveryCurve.Point],
        schedule: MessageSchedule,
        environment: String,
        asOf: Int64
    ) -> String {
        let pace = RecoveryPace(points: points)
        let subtitle =
            "Share of billing-retry episodes recovered by each day. \(environment), as of "
            + UTCTime.timestamp(asOf) + "."
        var lines: [String] = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" "#
                + #"viewBox="0 0 \#(width) \#(height)" role="img" aria-labelledby="title desc">"#,
            #"<title id="title">Recovery curve</title>"#,
            #"<desc id="desc">"# + escape(description(pace, environment: environment, asOf: asOf)) + "</desc>",
            #"<rect x="0" y="0" width="\#(width)" height="\#(height)" fill="\#(background)"/>"#,
            #"<g font-family="Helvetica, Arial, sans-serif" fill="\#(textColor)">"#,
            text("Recovery curve", x: plot.left, y: 30, size: 18, weight: "bold"),
            text(subtitle, x: plot.left, y: 52, size: 13),
        ]
        lines += bands(schedule)
        lines += grid()
        lines += curve(points)
        lines += references(pace)
        lines += axes()
        lines += legend(hasReferences: pace.cifAtHorizon > 0)
        lines += ["</g>", "</svg>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text made safe for XML character data and attribute values.
    package static func escape(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            // Control characters other than tab and line breaks are not allowed in XML 1.0 at all.
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r": escaped += " "
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    // MARK: - Parts

    private static func description(_ pace: RecoveryPace, environment: String, asOf: Int64) -> String {
        let marks = pace.marks.map { "day \($0.day): \(HumanFormat.percent($0.cifRecovery))" }
        return "Cumulative incidence of recovery (cif_recovery) in \(environment) as of \(UTCTime.timestamp(asOf)); "
            + marks.joined(separator: ", ") + "."
    }

    private static func bands(_ schedule: MessageSchedule) -> [String] {
        var lines: [String] = []
        for band in schedule.bands where band.firstDay <= days {
            let first = Double(band.firstDay - 1)
            let last = Double(min(band.lastDay, days))
            if band.number % 2 == 1 {
                lines.append(
                    #"<rect x="\#(f(x(first)))" y="\#(f(plot.top))" width="\#(f(x(last) - x(first)))" "#
                        + #"height="\#(f(plot.bottom - plot.top))" fill="\#(bandFill)"/>"#)
            }
            if band.firstDay > 1 {
                lines.append(
                    line(
                        x1: x(first), y1: plot.top, x2: x(first), y2: plot.bottom, color: bandEdge,
                        extra: #" stroke-dasharray="4 3""#))
            }
            lines.append(
                text(
                    "\(band.intervalHours) h", x: (x(first) + x(last)) / 2, y: plot.top - 8, size: 11,
                    anchor: "middle"))
        }
        lines.append(text("Message interval:", x: plot.left, y: plot.top - 26, size: 11, weight: "bold"))
        return lines
    }

    private static func grid() -> [String] {
        var lines: [String] = []
        for percent in percentTicks.dropFirst() {
            let gridY = y(Double(percent) / 100)
            lines.append(line(x1: plot.left, y1: gridY, x2: plot.right, y2: gridY, color: gridColor))
        }
        for day in dayTicks.dropFirst() {
            let gridX = x(Double(day))
            lines.append(line(x1: gridX, y1: plot.top, x2: gridX, y2: plot.bottom, color: gridColor))
        }
        return lines
    }

    private static func curve(_ points: [RecoveryCurve.Point]) -> [String] {
        let curvePoints = [(0.0, 0.0)] + points.filter { $0.day <= days }.map { (Double($0.day), $0.cifRecovery) }
        let coordinates = curvePoints.map { f(x($0.0)) + "," + f(y($0.1)) }.joined(separator: " ")
        var lines = [
            #"<polyline points="\#(coordinates)" fill="none" stroke="\#(curveColor)" stroke-width="2.5" "#
                + #"stroke-linejoin="round" stroke-linecap="round"/>"#
        ]
        for point in points where dayTicks.contains(point.day) {
            lines.append(
                #"<circle cx="\#(f(x(Double(point.day))))" cy="\#(f(y(point.cifRecovery)))" r="3.5" "#
                    + #"fill="\#(curveColor)"/>"#)
        }
        return lines
    }

    private static func references(_ pace: RecoveryPace) -> [String] {
        guard pace.cifAtHorizon > 0 else { return [] }
        var lines: [String] = []
        for mark in pace.marks {
            guard let reference = mark.appleReference else { continue }
            let centerX = x(Double(mark.day))
            let centerY = y(reference * pace.cifAtHorizon)
            lines.append(diamond(x: centerX, y: centerY))
            let label = ReportTable.Cell.decimal(reference * 100, places: 0).formatted + "%"
            lines.append(text(label, x: centerX + 10, y: centerY + 4, size: 11, color: referenceColor))
        }
        return lines
    }

    private static func axes() -> [String] {
        var lines = [
            line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, color: axisColor),
            line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, color: axisColor),
        ]
        for day in dayTicks {
            lines.append(
                line(x1: x(Double(day)), y1: plot.bottom, x2: x(Double(day)), y2: plot.bottom + 5, color: axisColor))
            lines.append(text(String(day), x: x(Double(day)), y: plot.bottom + 19, size: 12, anchor: "middle"))
        }
        for percent in percentTicks {
            let tickY = y(Double(percent) / 100)
            lines.append(line(x1: plot.left - 5, y1: tickY, x2: plot.left, y2: tickY, color: axisColor))
            lines.append(text("\(percent)%", x: plot.left - 9, y: tickY + 4, size: 12, anchor: "end"))
        }
        lines.append(
            text(
                "Day of billing retry", x: (plot.left + plot.right) / 2, y: plot.bottom + 40, size: 12, anchor: "middle"
            ))
        let middle = f((plot.top + plot.bottom) / 2)
        lines.append(
            #"<text x="0" y="0" font-size="12" text-anchor="middle" "#
                + #"transform="translate(20 \#(middle)) rotate(-90)">Recovered (share of episodes)</text>"#)
        return lines
    }

    private static func legend(hasReferences: Bool) -> [String] {
        let top = plot.bottom + 62
        var lines = [
            line(
                x1: plot.left, y1: top, x2: plot.left + 24, y2: top, color: curveColor, extra: #" stroke-width="2.5""#),
            text(
                "This report: cif_recovery, the recovered share of all episodes (open ones censored)",
                x: plot.left + 32, y: top + 4, size: 12),
            #"<rect x="\#(f(plot.left + 4))" y="\#(f(top + 32 - 7))" width="16" height="14" "#
                + #"fill="\#(bandFill)" stroke="\#(bandEdge)"/>"#,
            text(
                "Bands of the message schedule; the label is the interval between billing messages",
                x: plot.left + 32, y: top + 36, size: 12),
        ]
        lines.insert(diamond(x: plot.left + 12, y: top + 16), at: 2)
        lines.insert(
            text(
                hasReferences
                    ? "Apple's pace: 40/75/90% of the recoveries by day 60 come by day 3/16/28 (scaled to this curve)"
                    : "Apple's pace (40/75/90% of recoveries by day 3/16/28): not shown, no recoveries by day 60",
                x: plot.left + 32, y: top + 20, size: 12),
            at: 3)
        return lines
    }

    // MARK: - Drawing

    private static func x(_ day: Double) -> Double {
        plot.left + (plot.right - plot.left) * day / Double(days)
    }

    private static func y(_ share: Double) -> Double {
        plot.bottom - (plot.bottom - plot.top) * min(1, max(0, share))
    }

    private static func f(_ value: Double) -> String {
        ReportTable.Cell.decimal(value, places: 2).formatted
    }

    private static func line(
        x1: Double, y1: Double, x2: Double, y2: Double, color: String, extra: String = ""
    ) -> String {
        #"<line x1="\#(f(x1))" y1="\#(f(y1))" x2="\#(f(x2))" y2="\#(f(y2))" stroke="\#(color)"\#(extra)/>"#
    }

    private static func diamond(x centerX: Double, y centerY: Double) -> String {
        let size = 6.0
        let corners = [(0.0, -size), (size, 0.0), (0.0, size), (-size, 0.0)]
            .map { f(centerX + $0.0) + "," + f(centerY + $0.1) }.joined(separator: " ")
        return #"<polygon points="\#(corners)" fill="\#(background)" stroke="\#(referenceColor)" stroke-width="2"/>"#
    }

    private static func text(
        _ content: String, x: Double, y: Double, size: Int, weight: String? = nil, anchor: String? = nil,
        color: String? = nil
    ) -> String {
        var attributes = #"x="\#(f(x))" y="\#(f(y))" font-size="\#(size)""#
        if let weight { attributes += #" font-weight="\#(weight)""# }
        if let anchor { attributes += #" text-anchor="\#(anchor)""# }
        if let color { attributes += #" fill="\#(color)""# }
        return "<text " + attributes + ">" + escape(content) + "</text>"
    }
}
