import ArgumentParser
import Foundation
import Reports
import Workflows

/// `--exchange-rates FILE`: the user's own exchange rates, so that summary.md states what is at stake, and what retry is
/// expected to bring back, as one figure. Read before any work; the rates are never fetched or invented.
struct ExchangeRatesOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Exchange rates to state the money at stake as one figure: CSV 'currency,rate_to_<CODE>', then one "
                + "'<CODE>,<rate>' a line.",
            valueName: "file"
        )
    )
    var exchangeRates: String?

    func validate() throws {
        if let exchangeRates, let problem = FileAccess.problem(reading: exchangeRates) {
            throw ValidationError("cannot read exchange rates file \(exchangeRates): \(problem).")
        }
    }

    /// The rates of the file; nil without the option.
    /// - Throws: `WorkflowError.unreadableInput` when the file cannot be read, `WorkflowError.invalidInput` naming
    ///   the line and what is wrong when it cannot be used.
    func load() throws -> ExchangeRates? {
        guard let path = exchangeRates else { return nil }
        let name = "--exchange-rates \(path)"
        let data = try FileAccess.contents(ofFile: path, name: "exchange rates file \(path)")
        guard let text = String(data: data, encoding: .utf8) else {
            throw WorkflowError.invalidInput(name: name, line: nil, reason: "not a text file (its bytes are not UTF-8)")
        }
        do {
            return try ExchangeRates.parse(text, path: path)
        } catch let error as ReportsError {
            throw WorkflowError.invalidInput(name: name, line: error.line, reason: error.reason)
        }
    }
}
