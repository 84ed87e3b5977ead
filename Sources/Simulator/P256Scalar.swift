/// An integer modulo the order n of the P-256 group: the arithmetic an ECDSA signature needs beyond the curve point.
///
/// Four 64-bit limbs, least significant first. Products use Montgomery multiplication (CIOS) with R = 2²⁵⁶; values
/// are kept in ordinary form between operations. The limbs are separate properties and the loops are unrolled,
/// which keeps debug builds (the tests) fast too. Not constant-time: it signs test data with test keys only.
struct P256Scalar: Hashable, Sendable {
    private var l0: UInt64
    private var l1: UInt64
    private var l2: UInt64
    private var l3: UInt64

    /// n = FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551.
    private static let n0: UInt64 = 0xF3B9_CAC2_FC63_2551
    private static let n1: UInt64 = 0xBCE6_FAAD_A717_9E84
    private static let n2: UInt64 = 0xFFFF_FFFF_FFFF_FFFF
    private static let n3: UInt64 = 0xFFFF_FFFF_0000_0000

    /// −n⁻¹ mod 2⁶⁴, by Newton's iteration (each step doubles the number of correct low bits).
    private static let montgomeryFactor: UInt64 = {
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- n0 &* inverse) }
        return 0 &- inverse
    }()

    /// R mod n = 2²⁵⁶ − n: the Montgomery form of 1.
    private static let montgomeryOne = P256Scalar(~n0 &+ 1, ~n1, ~n2, ~n3)

    /// R² mod n, by doubling R mod n 256 times.
    private static let montgomerySquare: P256Scalar = {
        var value = montgomeryOne
        for _ in 0..<256 { value = value.adding(value) }
        return value
    }()

    /// The exponent of Fermat's inverse, n − 2, most significant limb first.
    private static let inverseExponent: [UInt64] = [n3, n2, n1, n0 - 2]

    static let zero = P256Scalar(0, 0, 0, 0)
    static let one = P256Scalar(1, 0, 0, 0)

    private init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
    }

    /// The value of 32 big-endian bytes, reduced modulo n (one subtraction suffices, since 2²⁵⁶ < 2n).
    /// Returns nil when `bytes` is not 32 bytes long.
    init?(reducing bytes: some Collection<UInt8>) {
        guard let value = Self(exactly: bytes) else { return nil }
        self = value.isBelowOrder ? value : value.subtractingOrder()
    }

    /// The value of 32 big-endian bytes, not reduced.
    private init?(exactly bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var limbs: [UInt64] = [0, 0, 0, 0]
        for (offset, byte) in bytes.enumerated() {
            limbs[offset / 8] = limbs[offset / 8] << 8 | UInt64(byte)
        }
        self.init(limbs[3], limbs[2], limbs[1], limbs[0])
    }

    /// Whether the 32 big-endian bytes are an integer in 1..<n (a valid private key or nonce).
    static func isValidNonzero(_ bytes: some Collection<UInt8>) -> Bool {
        guard let value = Self(exactly: bytes) else { return false }
        return !value.isZero && value.isBelowOrder
    }

    /// The value as 32 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for limb in [l3, l2, l1, l0] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
            }
        }
        return bytes
    }

    var isZero: Bool { l0 | l1 | l2 | l3 == 0 }

    /// (self + other) mod n, both below n.
    func adding(_ other: P256Scalar) -> P256Scalar {
        let (s0, c0) = l0.addingReportingOverflow(other.l0)
        let (s1, c1) = Self.add(l1, other.l1, c0)
        let (s2, c2) = Self.add(l2, other.l2, c1)
        let (s3, c3) = Self.add(l3, other.l3, c2)
        let sum = P256Scalar(s0, s1, s2, s3)
        // Wrapping subtraction gives the right value when the sum overflowed 2²⁵⁶.
        return c3 || !sum.isBelowOrder ? sum.subtractingOrder() : sum
    }

    /// (self · other) mod n.
    func multiplied(by other: P256Scalar) -> P256Scalar {
        Self.montgomeryProduct(Self.montgomeryProduct(self, other), Self.montgomerySquare)
    }

    /// self⁻¹ mod n by Fermat's little theorem (self^(n−2)); self must not be 0.
    ///
    /// Four exponent bits at a time: 256 squarings and at most 64 multiplications by a power of self from a table.
    func inverse() -> P256Scalar {
        var powers = [Self.montgomeryOne, Self.montgomeryProduct(self, Self.montgomerySquare)]
        for _ in 2..<16 {
            powers.append(Self.montgomeryProduct(powers[powers.count - 1], powers[1]))
        }
        var result = Self.montgomeryOne
        for limb in Self.inverseExponent {
            for shift in stride(from: 60, through: 0, by: -4) {
                for _ in 0..<4 { result = Self.montgomeryProduct(result, result) }
                let digit = Int(limb >> UInt64(shift) & 0xF)
                if digit != 0 { result = Self.montgomeryProduct(result, powers[digit]) }
            }
        }
        return Self.montgomeryProduct(result, Self.one)
    }

    private var isBelowOrder: Bool {
        if l3 != Self.n3 { return l3 < Self.n3 }
        if l2 != Self.n2 { return l2 < Self.n2 }
        if l1 != Self.n1 { return l1 < Self.n1 }
        return l0 < Self.n0
    }

    /// self − n, wrapping modulo 2²⁵⁶.
    private func subtractingOrder() -> P256Scalar {
        let (d0, b0) = l0.subtractingReportingOverflow(Self.n0)
        let (d1, b1) = Self.subtract(l1, Self.n1, b0)
        let (d2, b2) = Self.subtract(l2, Self.n2, b1)
        let (d3, _) = Self.subtract(l3, Self.n3, b2)
        return P256Scalar(d0, d1, d2, d3)
    }

    /// a · b · R⁻¹ mod n (coarsely integrated operand scanning).
    private static func montgomeryProduct(_ a: P256Scalar, _ b: P256Scalar) -> P256Scalar {
        var t0: UInt64 = 0
        var t1: UInt64 = 0
        var t2: UInt64 = 0
        var t3: UInt64 = 0
        var t4: UInt64 = 0
        for index in 0..<4 {
            // One word of b: t = (t + a · word + m · n) / 2⁶⁴, with m chosen so the division is exact.
            let word = index == 0 ? b.l0 : index == 1 ? b.l1 : index == 2 ? b.l2 : b.l3
            var carry: UInt64 = 0
            (carry, t0) = multiplyAdd(a.l0, word, t0, carry)
            (carry, t1) = multiplyAdd(a.l1, word, t1, carry)
            (carry, t2) = multiplyAdd(a.l2, word, t2, carry)
            (carry, t3) = multiplyAdd(a.l3, word, t3, carry)
            let (top, topOverflow) = t4.addingReportingOverflow(carry)

            let m = t0 &* montgomeryFactor
            (carry, _) = multiplyAdd(m, n0, t0, 0)
            (carry, t0) = multiplyAdd(m, n1, t1, carry)
            (carry, t1) = multiplyAdd(m, n2, t2, carry)
            (carry, t2) = multiplyAdd(m, n3, t3, carry)
            let (sum, sumOverflow) = top.addingReportingOverflow(carry)
            t3 = sum
            t4 = (topOverflow ? 1 : 0) &+ (sumOverflow ? 1 : 0)
        }
        let result = P256Scalar(t0, t1, t2, t3)
        return t4 != 0 || !result.isBelowOrder ? result.subtractingOrder() : result
    }

    /// a · b + c + d as a 128-bit value (it cannot overflow).
    @inline(__always)
    private static func multiplyAdd(
        _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64
    ) -> (high: UInt64, low: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (low1, overflow1) = low.addingReportingOverflow(c)
        let (low2, overflow2) = low1.addingReportingOverflow(d)
        return (high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0), low2)
    }

    @inline(__always)
    private static func add(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
        let (partial, overflow1) = a.addingReportingOverflow(b)
        let (total, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
        return (total, overflow1 || overflow2)
    }

    @inline(__always)
    private static func subtract(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
        let (partial, overflow1) = a.subtractingReportingOverflow(b)
        let (total, overflow2) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
        return (total, overflow1 || overflow2)
    }
}
