import Analysis
import Simulator

/// A seedable generator for property tests, drawing from ``SplitMix64``: the same seed gives the same
/// inputs in every run, so a failing input can be found again from the seed the test names.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    package init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    package mutating func next() -> UInt64 {
        generator.next()
    }

    /// True with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool {
        generator.chance(probability)
    }

    /// One of `elements`, which must not be empty.
    package mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    /// A number in `0..<bound` (0 when `bound` is 0) by the remainder of the next value: cheap, and the same in
    /// every run.
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }
}
