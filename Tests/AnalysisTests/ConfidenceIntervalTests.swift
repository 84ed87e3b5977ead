import Analysis
import Foundation
import Testing

@Suite struct ConfidenceIntervalTests {
    let z = ConfidenceInterval.z

    // Wilson, with p = x/n: (p + z²/(2n) ∓ z·√(p(1−p)/n + z²/(4n²))) / (1 + z²/n).
    // x = 0: p = 0, the root is z·z/(2n), so low = 0 and high = (z²/n) / (1 + z²/n) = z²/(n + z²).
    //   n = 10, z² = 3.841459: high = 3.841459 / 13.841459 = 0.277533.
    @Test func noSuccess() throws {
        let interval = try #require(ConfidenceInterval.wilson(successes: 0, trials: 10))
        #expect(interval.low == 0)
        #expect(abs(interval.high - z * z / (10 + z * z)) < 1e-15)
        #expect(sixPlaces(interval.high) == "0.277533")
    }

    // x = n: p = 1, the root is z²/(2n), so high = 1 and low = 1 / (1 + z²/n) = n/(n + z²);
    //   n = 10: 10 / 13.841459 = 0.722467.
    @Test func allSuccesses() throws {
        let interval = try #require(ConfidenceInterval.wilson(successes: 10, trials: 10))
        #expect(interval.high == 1)
        #expect(abs(interval.low - 10 / (10 + z * z)) < 1e-15)
        #expect(sixPlaces(interval.low) == "0.722467")
    }

    // x = 5, n = 10: p = 0.5, centre (0.5 + z²/20) / (1 + z²/10) = 0.5 exactly, so the bounds are symmetric:
    //   z²/20 = 0.192073; root z·√(0.025 + z²/400) = 1.959964 · √0.034604 = 0.364594;
    //   low = (0.692073 − 0.364594) / 1.384146 = 0.236593, high = (0.692073 + 0.364594) / 1.384146 = 0.763407.
    @Test func halfTheTrials() throws {
        let interval = try #require(ConfidenceInterval.wilson(successes: 5, trials: 10))
        #expect(abs(interval.low + interval.high - 1) < 1e-15)
        #expect(sixPlaces(interval.low) == "0.236593")
        #expect(sixPlaces(interval.high) == "0.763407")
    }

    // x = 1, n = 2: p = 0.5; z²/4 = 0.960365; root z·√(0.125 + z²/16) = 1.959964 · 0.604228 = 1.184265;
    //   scale 1 + z²/2 = 2.920729: low = (1.460365 − 1.184265) / 2.920729 = 0.094531, high = 0.905469.
    @Test func oneOfTwo() throws {
        let interval = try #require(ConfidenceInterval.wilson(successes: 1, trials: 2))
        #expect(sixPlaces(interval.low) == "0.094531")
        #expect(sixPlaces(interval.high) == "0.905469")
    }

    @Test func noTrialsNoInterval() {
        #expect(ConfidenceInterval.wilson(successes: 0, trials: 0) == nil)
        #expect(ConfidenceInterval.wilson(successes: 3, trials: 2) == nil)
        #expect(ConfidenceInterval.wilson(successes: -1, trials: 2) == nil)
    }

    // exp(ln 2 ± z·0.5) = 2·exp(±0.979982) = 0.750636 … 5.328817.
    @Test func logNormalInterval() throws {
        let interval = try #require(ConfidenceInterval.logNormal(estimate: 2, standardErrorOfLog: 0.5))
        #expect(abs(interval.low - 2 * exp(-z * 0.5)) < 1e-12)
        #expect(abs(interval.high - 2 * exp(z * 0.5)) < 1e-12)
        #expect(ConfidenceInterval.logNormal(estimate: 0, standardErrorOfLog: 0.5) == nil)
        #expect(ConfidenceInterval.logNormal(estimate: 2, standardErrorOfLog: .infinity) == nil)
    }
}
