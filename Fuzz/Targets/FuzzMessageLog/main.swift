import Analysis
import Foundation
import FuzzSupport

exit(runFuzzer(fuzzMessageLog))

/// The lines of an app's message log as `churn messages load` reads them (``MessageLogParser``), from arbitrary bytes.
///
/// The first byte picks how the log starts: a CSV header with the contract's columns in one of two orders, a JSON
/// Lines log (an object on its first line), or the bytes' own first line; the rest are its lines, each read as the
/// loader reads a line. The properties, each a crash (and the input kept) when broken:
/// - every line is an event, the header, or a refusal with a reason and a sentence;
/// - an event names a subscription (an id or a token), a token is a lowercase UUID, and its time is in 2008–2100;
/// - an event written back as a CSV line, every field quoted, reads back as the same event under a header of the
///   contract's columns.
func fuzzMessageLog(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let mode = bytes.first else { return 0 }
    let starts: [[UInt8]?] = [
        Array("original_transaction_id,app_account_token,at,action,arm".utf8),
        Array("arm , action,at,app_account_token, original_transaction_id,extra".utf8),
        Array(#"{"original_transaction_id":"1","at":1772357400000,"action":"shown"}"#.utf8),
        nil,
    ]
    var lines = bytes.dropFirst().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    if let first = starts[Int(mode) % starts.count] { lines.insert(first, at: 0) }
    var parser = MessageLogParser()
    for line in lines where !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
        switch parser.read(line) {
        case .header:
            continue
        case .refused(_, let detail):
            precondition(!detail.isEmpty, "a refusal without a sentence")
        case .event(let event):
            check(event)
        }
    }
    return 0
}

/// The properties of one event read from a line.
func check(_ event: MessageEvent) {
    precondition(event.originalTransactionId != nil || event.appAccountToken != nil, "an event without a subscription")
    if let token = event.appAccountToken {
        precondition(MessageEvent.token(token) == token, "a token that is not a lowercase UUID: \(token)")
    }
    precondition((1_199_145_600_000...4_102_444_800_000).contains(event.at), "a time outside 2008–2100: \(event.at)")
    func quoted(_ value: String?) -> String {
        value.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" } ?? ""
    }
    let row = [
        quoted(event.originalTransactionId), quoted(event.appAccountToken), String(event.at), event.action.rawValue,
        quoted(event.arm),
    ].joined(separator: ",")
    var again = MessageLogParser()
    _ = again.read(Array("original_transaction_id,app_account_token,at,action,arm".utf8))
    let read = again.read(Array(row.utf8))
    precondition(read == .event(event), "the event written back as CSV reads as \(read), not \(event)")
}
