/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the same seed gives the same numbers on
/// every platform and in every run, which is what makes a simulated export and a bootstrap interval reproducible.
///
/// Not for cryptography. Each purpose gets its own generator, derived from a seed, an index and a stream number
/// (``init(seed:index:stream:)``): the simulator's subscribers, so that a subscriber's history does not depend on
/// which thread made it or on how many subscribers came before, and each bootstrap of the report.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    package init(seed: UInt64) {
        self.state = seed
    }

    /// A generator for one purpose (`stream`) of one item (`index`) of a run with `seed`.
    package init(seed: UInt64, index: UInt64, stream: UInt64) {
        // Mixing each part through the output function keeps nearby indices and streams far apart.
        let mixed = Self.mix(Self.mix(seed ^ Self.mix(stream &+ 0x632B_E59B_D9B4_E019)) &+ index)
        self.state = mixed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A double uniformly distributed in `0..<1` (53 random bits).
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `probability` (clamped to 0…1).
    package mutating func chance(_ probability: Double) -> Bool {
        nextUnit() < probability
    }

    /// A value uniformly distributed in `range` (which must not be empty).
    package mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &self)
    }

    /// A value uniformly distributed in `0 ..< count` (which must be positive), by the high half of a full-width
    /// product (Lemire's method without its rejection step: the bias is below `count` / 2⁶⁴).
    package mutating func index(below count: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }

    /// An index drawn with the given relative weights (at least one must be positive).
    package mutating func index(weightedBy weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var target = nextUnit() * total
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return max(0, weights.count - 1)
    }

    /// SplitMix64's output function (a bijection on 64-bit values).
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
