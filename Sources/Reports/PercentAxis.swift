/// A percentage axis from 0 with nice ticks, fitted to the largest value it must show.
///
/// The step is the smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10 and 20 % that reaches the
/// maximum in at most six steps; the top is the first tick at or above the maximum. So the axis ends at most one
/// step above the data and never above 100 %. Without a positive maximum the axis runs 0–10 % in steps of 2 %.
/// Ticks are kept in hundredths of a percent (basis points), so their labels are exact.
package struct PercentAxis: Hashable, Sendable {
    /// The steps tried, in basis points, smallest first.
    package static let steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000]
    /// At most this many steps above 0.
    package static let maximumSteps = 6

    /// The step between ticks in basis points (hundredths of a percent).
    package var step: Int
    /// The number of steps from 0 to the top.
    package var stepCount: Int

    /// The axis for shares up to `maximum` (a share: 1 is 100 %).
    package init(coveringMaximum maximum: Double) {
        guard maximum.isFinite, maximum > 0 else {
            (step, stepCount) = (200, 5)
            return
        }
        let basisPoints = min(maximum, 1) * 10_000
        for step in Self.steps {
            let count = Int((basisPoints / Double(step)).rounded(.up))
            if count <= Self.maximumSteps {
                (self.step, stepCount) = (step, max(1, count))
                return
            }
        }
        (step, stepCount) = (2000, 5)
    }

    /// The top of the axis as a share.
    package var top: Double {
        Double(step * stepCount) / 10_000
    }

    /// The ticks from 0 to the top, as shares.
    package var ticks: [Double] {
        (0...stepCount).map { Double(step * $0) / 10_000 }
    }

    /// The tick labels from 0 to the top, `0%`, `2.5%`, `0.05%`: as many decimals as the step needs.
    package var labels: [String] {
        let decimals = step % 100 == 0 ? 0 : (step % 10 == 0 ? 1 : 2)
        return (0...stepCount).map { index in
            let basisPoints = step * index
            let whole = String(basisPoints / 100)
            let fraction = basisPoints % 100
            switch decimals {
            case 0: return whole + "%"
            case 1: return whole + "." + String(fraction / 10) + "%"
            default: return whole + "." + (fraction < 10 ? "0" : "") + String(fraction) + "%"
            }
        }
    }
}
