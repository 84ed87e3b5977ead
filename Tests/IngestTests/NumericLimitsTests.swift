import Foundation
import PGClient
import TestSupport
import Testing

@testable import AppStoreNotifications

/// The strict JSON check accepts a number exactly when PostgreSQL stores it in `jsonb`: the server itself decides
/// each case, the limits' edges and random numbers around them.
@Suite struct NumericLimitsTests {
    static let edges = [
        "0", "-0", "1", "1e131071", "1e131072", "10e131070", "10e131071", "0.001e131074", "0.001e131075",
        "1e-16383", "1e-16384", "1.5e-16382", "1.25e-16382", "0.0000e-99999", "0e999999999", "0e1073741822",
        "0e1073741823", "1e-1073741823", "0E+0", "1E+131071", "-1.0e131071", "2.5e-3", "123.456",
    ]

    @Test func theCheckAcceptsTheNumbersJsonbStores() throws {
        let connection = try TestDatabase.makeSchema("numeric").connect()
        var random = SeededRandom(seed: 7)
        var numbers = Self.edges
        numbers.append(String(repeating: "9", count: 131_072))
        numbers.append(String(repeating: "9", count: 131_073))
        numbers.append("0." + String(repeating: "0", count: 16_383))
        numbers.append("0." + String(repeating: "0", count: 16_384))
        for _ in 0..<300 {
            let integer = ["0", "1", "12", "100", "9999"][Int(random.next() % 5)]
            let fraction = ["", ".0", ".5", ".000", ".0001", ".10"][Int(random.next() % 6)]
            let edge = [131_068, 131_072, 16_380, 16_384, 1_073_741_820, 1_073_741_824][Int(random.next() % 6)]
            let exponent = edge + Int(random.next() % 9) - 4
            let sign = random.next() % 2 == 0 ? "" : "-"
            numbers.append("\(integer)\(fraction)e\(sign)\(exponent)")
        }
        for number in numbers {
            let text = #"{"n":\#(number)}"#
            let accepted = (try? JSONScanner.check(Data(text.utf8))) != nil
            let stored = (try? connection.execute("SELECT $1::jsonb", [text])) != nil
            #expect(accepted == stored, "\(number.prefix(40)): the check \(accepted ? "accepts" : "refuses") it")
        }
    }
}
