import Foundation

/// Exchange rates the user gives (`--exchange-rates FILE`), so that the summary can state what is at stake, and what
/// retry is expected to bring back, as one figure in one currency. The rates are the user's: the project never
/// fetches or invents one, and a currency without a rate stays apart, in its own units.
///
/// The file is CSV: a header naming the target currency, then one currency a line with what one unit of it is worth
/// in the target:
/// ```
/// # rates of 2025-12-31, from our finance team
/// currency,rate_to_USD
/// EUR,1.08
/// GBP,1.27
/// JPY,0.0067
/// ```
/// Currencies are ISO 4217 codes (three capital letters); a rate is a decimal number above 0 with `.` as the decimal
/// mark. `#` starts a comment line; blank lines are ignored. The target's own rate is 1, and a line for it must say
/// so.
package struct ExchangeRates: Hashable, Sendable {
    /// The currency every amount is converted to.
    package let target: String
    /// What one unit of each currency is worth in ``target``; the target itself is not listed.
    package let rates: [String: Decimal]

    /// - Parameters:
    ///   - target: the currency to convert to.
    ///   - rates: what one unit of each currency is worth in `target`.
    package init(target: String, rates: [String: Decimal]) {
        self.target = target
        self.rates = rates.filter { $0.key != target }
    }

    /// What one unit of `currency` is worth in ``target``: 1 for the target itself; nil without a rate.
    package func rate(of currency: String) -> Decimal? {
        currency == target ? 1 : rates[currency]
    }

    /// `amount` (currency units of `currency`) in ``target``; nil without a rate.
    package func converted(_ amount: Decimal, from currency: String) -> Decimal? {
        rate(of: currency).map { amount * $0 }
    }

    /// An amount of `currency` rounded to its minor unit (the cent, the whole yen; half away from zero), in
    /// milliunits; nil when it does not fit in 64 bits.
    package static func milliunits(_ amount: Decimal, currency: String) -> Int64? {
        var units = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &units, HumanFormat.minorUnitDigits(of: currency), .plain)
        let milliunits = rounded * 1000
        guard abs(milliunits) <= Decimal(Int64.max) else { return nil }
        return NSDecimalNumber(decimal: milliunits).int64Value
    }

    /// Reads the file's text.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - path: the file, as the user named it, for the error.
    /// - Throws: `ReportsError` naming the file, the line and what is wrong with it.
    package static func parse(_ text: String, path: String) throws -> ExchangeRates {
        func problem(_ line: Int?, _ reason: String) -> ReportsError {
            ReportsError(operation: "reading the exchange rates", path: path, line: line, reason: reason)
        }
        var target: String?
        var rates: [String: Decimal] = [:]
        var lineOf: [String: Int] = [:]
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // `isNewline` also takes "\r\n", which is one Character.
        for (index, raw) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let known = target else {
                guard fields.count == 2, fields[0] == "currency", fields[1].hasPrefix("rate_to_"),
                    isCurrencyCode(fields[1].dropFirst("rate_to_".count))
                else {
                    throw problem(
                        line,
                        "expected the header \"currency,rate_to_<CODE>\" naming the currency to convert to, such as "
                            + "\"currency,rate_to_USD\", found \"\(trimmed)\"")
                }
                target = String(fields[1].dropFirst("rate_to_".count))
                continue
            }
            guard fields.count == 2 else {
                throw problem(line, "expected \"<CODE>,<rate>\" such as \"EUR,1.08\", found \"\(trimmed)\"")
            }
            let code = fields[0]
            guard isCurrencyCode(Substring(code)) else {
                throw problem(line, "\"\(code)\" is not a currency code: three capital letters, such as EUR")
            }
            guard let rate = decimal(fields[1]), rate > 0 else {
                let reason = "a decimal number above 0 with \".\" as the decimal mark, such as 1.08"
                throw problem(line, "\"\(fields[1])\" is not a rate: " + reason)
            }
            if let first = lineOf[code] {
                throw problem(line, "\(code) has a rate already (line \(first)); give each currency one line")
            }
            if code == known, rate != 1 {
                throw problem(line, "\(code) is the currency converted to: its rate is 1, not \(fields[1])")
            }
            lineOf[code] = line
            rates[code] = rate
        }
        guard let target else {
            throw problem(nil, "no header \"currency,rate_to_<CODE>\" and no rate: the file is empty")
        }
        guard rates.keys.contains(where: { $0 != target }) else {
            throw problem(nil, "no rate after the header: add a line for each currency, such as \"EUR,1.08\"")
        }
        return ExchangeRates(target: target, rates: rates)
    }

    /// Three ASCII capital letters.
    private static func isCurrencyCode(_ text: Substring) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// Digits with at most one `.` between digits, read exactly; nil for anything else (signs, exponents, a `,`).
    private static func decimal(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in
            !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        guard parts.count <= 2, parts.allSatisfy(isDigits) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
