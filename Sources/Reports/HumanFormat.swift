import Analysis

/// Numbers written for people in `summary.md`: fixed rules and no locale, so the text is the same everywhere.
///
/// Counts and money group thousands with `,`; percentages have one decimal; an undefined value (a zero
/// denominator) is `n/a`. Rounding is that of C `printf` on the exact binary value, as in the CSV files.
package enum HumanFormat {
    /// What an undefined value reads as.
    package static let undefined = "n/a"

    /// `1,234,567`.
    package static func count(_ value: Int) -> String {
        (value < 0 ? "-" : "") + grouped(UInt64(value.magnitude))
    }

    /// `+3`, `-2`, `0`.
    package static func signedCount(_ value: Int) -> String {
        value > 0 ? "+" + count(value) : count(value)
    }

    /// A share as a percentage with one decimal, `42.9%` (or `places` decimals: daily hazards have two);
    /// `n/a` when undefined.
    package static func percent(_ share: Double?, places: Int = 1) -> String {
        guard let share, share.isFinite else { return undefined }
        return ReportTable.Cell.decimal(share * 100, places: places).formatted + "%"
    }

    /// A 95% interval of a share, `21.5%–78.5%`; `n/a` when undefined.
    package static func percentInterval(_ interval: ConfidenceInterval?) -> String {
        guard let interval else { return undefined }
        return percent(interval.low) + "–" + percent(interval.high)
    }

    /// A share with its 95% interval, `50.0% (21.5%–78.5%)`; `n/a` when the share is undefined.
    package static func percent(_ share: Double?, interval: ConfidenceInterval?) -> String {
        guard share != nil else { return undefined }
        return percent(share) + " (" + percentInterval(interval) + ")"
    }

    /// A ratio of two rates with two decimals, `1.35`; `n/a` when undefined.
    package static func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return undefined }
        return ReportTable.Cell.decimal(value, places: 2).formatted
    }

    /// A 95% interval of a ratio, `0.80–2.10`; `n/a` when undefined.
    package static func ratioInterval(_ interval: ConfidenceInterval?) -> String {
        guard let interval else { return undefined }
        return ratio(interval.low) + "–" + ratio(interval.high)
    }

    /// The difference of two shares in percentage points, `+1.2 pp`, `-0.4 pp`, `0.0 pp`; `n/a` when either
    /// share is undefined.
    package static func percentagePoints(from old: Double?, to new: Double?) -> String {
        guard let old, let new, old.isFinite, new.isFinite else { return undefined }
        let text = ReportTable.Cell.decimal((new - old) * 100, places: 1).formatted
        let isZero = text.allSatisfy { $0 == "0" || $0 == "." || $0 == "-" }
        return (isZero || text.hasPrefix("-") ? text : "+" + text) + " pp"
    }

    /// An amount in milliunits as `USD 1,234.56`: two decimals when the amount is whole cents, else three
    /// (never rounded). A missing currency reads `(no currency)`; nil (a sum too large to hold) reads as such.
    package static func money(_ milliunits: Int64?, currency: String) -> String {
        let code = currency.isEmpty ? "(no currency)" : currency
        guard let milliunits else { return code + " (too large to add up)" }
        return code + " " + amount(milliunits)
    }

    /// The change of an amount in milliunits, `USD +4.99`; `USD 0.00` when unchanged.
    package static func moneyChange(from old: Int64?, to new: Int64?, currency: String) -> String {
        let code = currency.isEmpty ? "(no currency)" : currency
        guard let old, let new else { return code + " " + undefined }
        let (difference, overflow) = new.subtractingReportingOverflow(old)
        guard !overflow else { return code + " " + undefined }
        return code + " " + (difference > 0 ? "+" : "") + amount(difference)
    }

    /// An amount in milliunits without its currency, `1,234.56`; for tables with a currency column.
    package static func amount(_ milliunits: Int64?) -> String {
        milliunits.map(amount) ?? "(too large to add up)"
    }

    /// Milliunits as units: `1,234.56` or `1.234`.
    private static func amount(_ milliunits: Int64) -> String {
        let (whole, fraction) = milliunits.magnitude.quotientAndRemainder(dividingBy: 1000)
        let decimals =
            fraction % 10 == 0
            ? String(repeating: "0", count: 2 - String(fraction / 10).count) + String(fraction / 10)
            : String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
        return (milliunits < 0 ? "-" : "") + grouped(whole) + "." + decimals
    }

    private static func grouped(_ value: UInt64) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
