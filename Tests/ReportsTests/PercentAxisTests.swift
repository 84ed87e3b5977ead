import Reports
import Testing

@Suite struct PercentAxisTests {
    @Test(arguments: [
        // (maximum, step in basis points, top, labels)
        (0.444444, 1000, 0.5, ["0%", "10%", "20%", "30%", "40%", "50%"]),
        (0.5, 1000, 0.5, ["0%", "10%", "20%", "30%", "40%", "50%"]),
        (0.500001, 1000, 0.6, ["0%", "10%", "20%", "30%", "40%", "50%", "60%"]),
        (0.600001, 2000, 0.8, ["0%", "20%", "40%", "60%", "80%"]),
        (1.0, 2000, 1.0, ["0%", "20%", "40%", "60%", "80%", "100%"]),
        (0.0123, 25, 0.0125, ["0.00%", "0.25%", "0.50%", "0.75%", "1.00%", "1.25%"]),
        (0.09, 200, 0.1, ["0%", "2%", "4%", "6%", "8%", "10%"]),
        (0.021, 50, 0.025, ["0.0%", "0.5%", "1.0%", "1.5%", "2.0%", "2.5%"]),
        (0.11, 200, 0.12, ["0%", "2%", "4%", "6%", "8%", "10%", "12%"]),
        (0.14, 250, 0.15, ["0.0%", "2.5%", "5.0%", "7.5%", "10.0%", "12.5%", "15.0%"]),
        (0.000_05, 1, 0.0001, ["0.00%", "0.01%"]),
    ])
    func fitsTheMaximum(maximum: Double, step: Int, top: Double, labels: [String]) {
        let axis = PercentAxis(coveringMaximum: maximum)
        #expect(axis.step == step)
        #expect(abs(axis.top - top) < 1e-12)
        #expect(axis.top >= maximum)
        #expect(axis.labels == labels)
        #expect(axis.ticks.count == labels.count)
        #expect(axis.ticks.first == 0)
        #expect(axis.stepCount <= PercentAxis.maximumSteps)
    }

    @Test(arguments: [0.0, -0.5, Double.nan, Double.infinity])
    func withoutAPositiveMaximumRunsToTenPercent(maximum: Double) {
        let axis = PercentAxis(coveringMaximum: maximum)
        #expect(axis.labels == ["0%", "2%", "4%", "6%", "8%", "10%"])
    }

    @Test func neverAboveOneHundredPercent() {
        #expect(PercentAxis(coveringMaximum: 3).top == 1)
        #expect(PercentAxis(coveringMaximum: 0.81).labels.last == "100%")
    }

    /// Every top is at most one step above the maximum, for maxima across the whole range.
    @Test func topIsTheFirstTickAtOrAboveTheMaximum() {
        var maximum = 0.000_01
        while maximum <= 1 {
            let axis = PercentAxis(coveringMaximum: maximum)
            let step = Double(axis.step) / 10_000
            #expect(axis.top >= maximum - 1e-12, "\(maximum)")
            #expect(axis.top - step < maximum, "\(maximum)")
            maximum *= 1.07
        }
    }
}
