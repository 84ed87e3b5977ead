import Analysis

extension SVGChart {
    /// The room a one-line label takes, in px: `left`…`right` across, `baseline` − its size … `baseline` + 2 down.
    struct LabelBox {
        var left: Double
        var baseline: Double
        var width: Double
        var size: Int

        var right: Double { left + width }
        var top: Double { baseline - Double(size) }
        var bottom: Double { baseline + 2 }

        /// A box for `text` at font size `size` that starts at `left`.
        init(_ text: String, size: Int, left: Double, baseline: Double) {
            self.left = left
            self.baseline = baseline
            self.width = textWidth(text, size: size)
            self.size = size
        }

        /// A box for `text` that ends at `right`.
        init(_ text: String, size: Int, right: Double, baseline: Double) {
            self.init(text, size: size, left: right - textWidth(text, size: size), baseline: baseline)
        }

        /// Whether the two boxes overlap down and come closer than 8 px across.
        func isClose(to other: LabelBox) -> Bool {
            left < other.right + 8 && other.left < right + 8 && top < other.bottom && other.top < bottom
        }

        /// Whether the box lies within the plot's width and `top`…`bottom`.
        func fits(_ plot: Plot, top upper: Double, bottom lower: Double) -> Bool {
            left >= plot.left && right <= plot.right && top >= upper && bottom <= lower
        }
    }

    /// The first of `candidates` that is not close to any box in `placed` (the last one when every one is), added
    /// to `placed`.
    static func place(_ candidates: [LabelBox], avoiding placed: inout [LabelBox]) -> LabelBox? {
        let taken = placed
        guard let box = candidates.first(where: { box in !taken.contains { box.isClose(to: $0) } }) ?? candidates.last
        else { return nil }
        placed.append(box)
        return box
    }

    /// The dashed line across the plot that marks a grace end at `x` px.
    static func graceEndLine(_ plot: Plot, x: Double) -> String {
        line(x1: x, y1: plot.top, x2: x, y2: plot.bottom, color: graceColor, extra: graceDash)
    }

    /// A grace-end label in `box`. With `halo`, it has a white outline, for labels drawn over the plot.
    static func graceLabel(_ text: String, in box: LabelBox, halo: Bool = false) -> String {
        Self.text(
            text, x: box.left + box.width / 2, y: box.baseline, size: box.size, anchor: "middle", color: graceColor,
            extra: halo ? #" stroke="\#(background)" stroke-width="3" paint-order="stroke""# : "")
    }

    /// The legend's sample of a grace-end line at `y`, with its explanation.
    static func graceLegend(_ plot: Plot, y: Double, explanation: String) -> [String] {
        [
            line(x1: plot.left, y1: y, x2: plot.left + 24, y2: y, color: graceColor, extra: graceDash),
            text(explanation, x: plot.left + 32, y: y + 4, size: 12),
        ]
    }

    private static let graceDash = #" stroke-width="1.5" stroke-dasharray="5 3""#
}
