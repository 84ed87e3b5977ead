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

    /// An amount in milliunits as `USD 1,234.56`, `JPY 32,850`, `KWD 1.250`: as many decimals as the currency's minor
    /// unit (``minorUnitDigits(of:)``), and more when the amount has them (never rounded). A missing currency reads
    /// `(no currency)`; nil (a sum too large to hold) reads as such.
    package static func money(_ milliunits: Int64?, currency: String) -> String {
        let code = currency.isEmpty ? "(no currency)" : currency
        guard let milliunits else { return code + " (too large to add up)" }
        return code + " " + amount(milliunits, currency: currency)
    }

    /// The change of an amount in milliunits, `USD +4.99`; `USD 0.00` when unchanged.
    package static func moneyChange(from old: Int64?, to new: Int64?, currency: String) -> String {
        let code = currency.isEmpty ? "(no currency)" : currency
        guard let old, let new else { return code + " " + undefined }
        let (difference, overflow) = new.subtractingReportingOverflow(old)
        guard !overflow else { return code + " " + undefined }
        return code + " " + (difference > 0 ? "+" : "") + amount(difference, currency: currency)
    }

    /// An amount in milliunits without its currency code, `1,234.56`, `32,850`; for tables with a currency column.
    package static func amount(_ milliunits: Int64?, currency: String) -> String {
        milliunits.map { amount($0, currency: currency) } ?? "(too large to add up)"
    }

    /// An estimate in units of `currency` as milliunits, rounded to the currency's minor unit (the cent, the whole
    /// yen): an estimate shows no more. 0 for a value that is not finite or does not fit.
    package static func estimate(_ amount: Double, currency: String) -> Int64 {
        let step = milliunitsPerMinorUnit(of: currency)
        guard amount.isFinite, abs(amount) < 9e15 else { return 0 }
        return Int64((amount * 1000 / Double(step)).rounded()) * step
    }

    /// How many decimals an amount of `currency` is written with: the minor unit of ISO 4217, the standard Apple
    /// names for the `currency` of a transaction. 0 for the currencies without one (the yen, the won, …), 3 for
    /// those of a thousandth (the Kuwaiti dinar, …), 2 for every other code, an unknown or missing one included.
    package static func minorUnitDigits(of currency: String) -> Int {
        if wholeUnitCurrencies.contains(currency) { return 0 }
        if thousandthCurrencies.contains(currency) { return 3 }
        return 2
    }

    /// ISO 4217 codes whose minor unit is 0.
    private static let wholeUnitCurrencies: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
        "XOF", "XPF",
    ]

    /// ISO 4217 codes whose minor unit is 3.
    private static let thousandthCurrencies: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    private static func milliunitsPerMinorUnit(of currency: String) -> Int64 {
        [1000, 100, 10, 1][minorUnitDigits(of: currency)]
    }

    /// Milliunits as units with the currency's decimals, or more when the amount has them: `1,234.56`, `32,850`,
    /// `1.234`.
    private static func amount(_ milliunits: Int64, currency: String) -> String {
        let (whole, fraction) = milliunits.magnitude.quotientAndRemainder(dividingBy: 1000)
        var digits = minorUnitDigits(of: currency)
        while digits < 3, fraction % [1000, 100, 10, 1][digits] != 0 { digits += 1 }
        let padded = String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
        let decimals = padded.prefix(digits)
        return (milliunits < 0 ? "-" : "") + grouped(whole) + (decimals.isEmpty ? "" : "." + decimals)
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
