extension Int {
    /// The decimal digits with leading zeros up to `width` digits, after a `-` when negative: `7` → `07`.
    package func zeroPadded(width: Int) -> String {
        let digits = String(magnitude)
        return (self < 0 ? "-" : "") + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
