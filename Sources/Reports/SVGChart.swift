import Analysis

/// What the report's charts share: a self-contained SVG document (no scripts, fonts or external references),
/// colours, and drawing helpers that write coordinates with 2 decimals, so the same figures give the same bytes.
///
/// The charts are ``RecoveryCurveChart`` (`recovery_curve.svg`) and ``RecoveryHazardChart``
/// (`recovery_hazard.svg`). Both plot days of billing retry on a 760 px wide canvas with the same margins.
package enum SVGChart {
    package static let width = 760

    /// The plot area, in px.
    struct Plot {
        var left = 72.0
        var right = 736.0
        var top: Double
        var bottom: Double
        /// The days at the left and right edges.
        var firstDay: Double
        var lastDay: Double
        var axis: PercentAxis

        func x(_ day: Double) -> Double {
            left + (right - left) * (day - firstDay) / (lastDay - firstDay)
        }

        /// The height of a share, clamped to the axis.
        func y(_ share: Double) -> Double {
            bottom - (bottom - top) * min(1, max(0, share / axis.top))
        }
    }

    static let curveColor = "#1b5fae"
    static let intervalFill = "#b9cfea"
    static let bandFill = "#edf2f9"
    static let bandEdge = "#9fb3cf"
    static let graceColor = "#b35900"
    static let gridColor = "#dcdcdc"
    static let axisColor = "#333333"
    static let textColor = "#222222"
    static let mutedColor = "#555555"
    static let background = "#ffffff"

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

    /// The whole document: a white canvas, the title with the report's environment and as-of time at its right,
    /// the subtitle, then `body`.
    static func document(
        height: Int, title: String, subtitle: String, environment: String, asOf: Int64, description: String,
        body: [String]
    ) -> String {
        var lines: [String] = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" "#
                + #"viewBox="0 0 \#(width) \#(height)" role="img" aria-labelledby="title desc">"#,
            #"<title id="title">"# + escape(title) + "</title>",
            #"<desc id="desc">"# + escape(description) + "</desc>",
            #"<rect x="0" y="0" width="\#(width)" height="\#(height)" fill="\#(background)"/>"#,
            #"<g font-family="Helvetica, Arial, sans-serif" fill="\#(textColor)">"#,
            text(title, x: 72, y: 30, size: 18, weight: "bold"),
            text(
                "\(environment), as of \(UTCTime.minute(asOf))", x: 736, y: 30, size: 12, anchor: "end",
                color: mutedColor),
            text(subtitle, x: 72, y: 52, size: 13),
        ]
        lines += body
        lines += ["</g>", "</svg>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Horizontal gridlines and labels at the axis's ticks, and the y-axis title.
    static func percentAxis(_ plot: Plot, title: String) -> [String] {
        var lines: [String] = []
        for (share, label) in zip(plot.axis.ticks, plot.axis.labels) {
            let tickY = plot.y(share)
            if share > 0 { lines.append(line(x1: plot.left, y1: tickY, x2: plot.right, y2: tickY, color: gridColor)) }
            lines.append(line(x1: plot.left - 5, y1: tickY, x2: plot.left, y2: tickY, color: axisColor))
            lines.append(text(label, x: plot.left - 9, y: tickY + 4, size: 12, anchor: "end"))
        }
        let middle = f((plot.top + plot.bottom) / 2)
        lines.append(
            #"<text x="0" y="0" font-size="12" text-anchor="middle" "#
                + #"transform="translate(18 \#(middle)) rotate(-90)">\#(escape(title))</text>"#)
        return lines
    }

    /// The x-axis with ticks and labels at `days` (each drawn at `position(day)`), and its title.
    static func dayAxis(_ plot: Plot, days: [Int], position: (Int) -> Double, title: String) -> [String] {
        var lines = [
            line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, color: axisColor),
            line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, color: axisColor),
        ]
        for day in days {
            let tickX = plot.x(position(day))
            lines.append(line(x1: tickX, y1: plot.bottom, x2: tickX, y2: plot.bottom + 5, color: axisColor))
            lines.append(text(String(day), x: tickX, y: plot.bottom + 19, size: 12, anchor: "middle"))
        }
        lines.append(
            text(title, x: (plot.left + plot.right) / 2, y: plot.bottom + 40, size: 12, anchor: "middle"))
        return lines
    }

    static func f(_ value: Double) -> String {
        ReportTable.Cell.decimal(value, places: 2).formatted
    }

    static func line(
        x1: Double, y1: Double, x2: Double, y2: Double, color: String, extra: String = ""
    ) -> String {
        #"<line x1="\#(f(x1))" y1="\#(f(y1))" x2="\#(f(x2))" y2="\#(f(y2))" stroke="\#(color)"\#(extra)/>"#
    }

    static func rect(x: Double, y: Double, width: Double, height: Double, fill: String, extra: String = "") -> String {
        #"<rect x="\#(f(x))" y="\#(f(y))" width="\#(f(width))" height="\#(f(height))" fill="\#(fill)"\#(extra)/>"#
    }

    static func points(_ coordinates: [(x: Double, y: Double)]) -> String {
        coordinates.map { f($0.x) + "," + f($0.y) }.joined(separator: " ")
    }

    static func text(
        _ content: String, x: Double, y: Double, size: Int, weight: String? = nil, anchor: String? = nil,
        color: String? = nil, extra: String = ""
    ) -> String {
        var attributes = #"x="\#(f(x))" y="\#(f(y))" font-size="\#(size)""#
        if let weight { attributes += #" font-weight="\#(weight)""# }
        if let anchor { attributes += #" text-anchor="\#(anchor)""# }
        if let color { attributes += #" fill="\#(color)""# }
        return "<text " + attributes + extra + ">" + escape(content) + "</text>"
    }

    /// A rough width of `content` at font size `size`, for keeping labels apart (Helvetica averages about
    /// 0.55 em per character).
    static func textWidth(_ content: String, size: Int) -> Double {
        Double(content.count) * Double(size) * 0.55
    }
}
