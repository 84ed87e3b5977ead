#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ReportTable {
    /// A typed cell; the writers format it with `formatted`.
    package enum Cell: Hashable, Sendable {
        /// A count.
        case integer(Int)
        /// A measured value, rounded half-to-even on its exact binary value to `places` decimals (`%.*f`).
        case decimal(Double, places: Int)
        /// An exact decimal `units × 10^−places` kept as an integer, such as milliunits with `places` 3.
        case exact(Int64, places: Int)
        case text(String)
        /// A yes or no: `true` or `false` in text, a JSON boolean in JSON.
        case boolean(Bool)
        /// An undefined or missing value (a zero denominator, no currency): empty in text, `null` in JSON.
        case empty

        /// Rates, shares, `cif_recovery`, `hazard_per_day`, hazards, hazard ratios, interval bounds and
        /// `exposure_days`: 6 places.
        package static let ratePlaces = 6
        /// `recoveries_per_1000_messages`: 2 places.
        package static let perThousandPlaces = 2

        /// `numerator / denominator` with 6 places, or empty when the denominator is 0.
        package static func ratio(_ numerator: Int, _ denominator: Int) -> Cell {
            denominator == 0 ? .empty : .decimal(Double(numerator) / Double(denominator), places: ratePlaces)
        }

        /// `value` with `places` decimals, or empty when it is nil (undefined) or not finite.
        package static func decimal(ifDefined value: Double?, places: Int) -> Cell {
            guard let value, value.isFinite else { return .empty }
            return .decimal(value, places: places)
        }

        /// A price sum in milliunits as currency units with 3 decimals.
        package static func milliunits(_ value: Int64) -> Cell {
            .exact(value, places: 3)
        }

        /// A price or price sum in milliunits as currency units with 3 decimals, or empty when it is nil (missing,
        /// or a sum that does not fit in 64 bits).
        package static func milliunits(ifDefined value: Int64?) -> Cell {
            value.map(milliunits) ?? .empty
        }

        /// The text written into a file: `.` as the decimal mark, no grouping, empty for `empty`.
        package var formatted: String {
            switch self {
            case .integer(let value):
                return String(value)
            case .decimal(let value, let places):
                guard value.isFinite else { return "" }
                let text = Self.fixed(value, places: max(0, places))
                // A negative value that rounds to zero (or −0 itself) is written without its sign.
                if text.hasPrefix("-"), Double(text) == 0 { return String(text.dropFirst()) }
                return text
            case .exact(let value, let places):
                return Self.formatExact(value, places: places)
            case .text(let value):
                return value
            case .boolean(let value):
                return value ? "true" : "false"
            case .empty:
                return ""
            }
        }

        /// C's `%.*f` of `value`, as `String(format:)` writes it, without that call's locale lookup and argument
        /// boxing, which cost more than the digits themselves in a file of tens of thousands of rows.
        private static func fixed(_ value: Double, places: Int) -> String {
            let precision = Int32(clamping: places)
            let format = "%.*f"
            // Most values fit in 64 bytes; one that does not (1e300 with 6 places) is written again, measured.
            let (short, needed) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                let needed = withVaList([precision, value]) { vsnprintf(buffer.baseAddress, 64, format, $0) }
                return (needed < 64 ? Self.text(buffer, count: Int(needed)) : nil, Int(needed))
            }
            if let short { return short }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: needed + 1) { buffer in
                let written = withVaList([precision, value]) {
                    vsnprintf(buffer.baseAddress, needed + 1, format, $0)
                }
                return Self.text(buffer, count: Int(written))
            }
        }

        private static func text(_ buffer: UnsafeMutableBufferPointer<CChar>, count: Int) -> String {
            let written = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<max(0, count)])
            return String(decoding: written, as: UTF8.self)
        }

        private static func formatExact(_ value: Int64, places: Int) -> String {
            let magnitude = value.magnitude
            let sign = value < 0 ? "-" : ""
            guard places > 0 else { return sign + String(magnitude) }
            // UInt64 holds at most 19 full decimal digits; more places only add leading zeros.
            var divisor: UInt64 = 1
            for _ in 0..<min(places, 19) { divisor *= 10 }
            let (whole, fraction) = places > 19 ? (0, magnitude) : magnitude.quotientAndRemainder(dividingBy: divisor)
            let digits = String(fraction)
            return sign + String(whole) + "." + String(repeating: "0", count: places - digits.count) + digits
        }
    }
}
