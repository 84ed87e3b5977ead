/// Money in integer milliunits (1/1000 of a currency unit), as App Store prices are: sums stay exact.
package enum Milliunits {
    /// `sum + value`, a missing value adding 0; nil when the sum is already nil or does not fit in 64 bits (an
    /// unknown sum rather than a wrong one).
    package static func adding(_ value: Int64?, to sum: Int64?) -> Int64? {
        guard let sum else { return nil }
        let (added, overflow) = sum.addingReportingOverflow(value ?? 0)
        return overflow ? nil : added
    }
}
