import Analysis
import CivilTime
import Foundation

/// Reads the lines of an app's message log (docs/METRICS.md, "Billing messages the app showed"), one event per line:
///
/// - CSV with a header row (RFC 4180: fields separated by commas, a field in double quotes may hold commas and `""`
///   for a quote; spaces around an unquoted field are dropped). The header names the columns, in any order:
///   `original_transaction_id` and `app_account_token` (at least one), `at`, `action`, and `arm` if wanted; other
///   columns are ignored.
/// - JSON Lines: one object per line with the same names; an id or an arm may be a JSON string or a whole number,
///   `at` a string or a number of milliseconds; other members are ignored.
///
/// The first line that is not blank decides: `{` starts JSON Lines, anything else is the CSV header. `at` is an ISO
/// 8601 instant with its zone (`2026-03-01T09:30:00Z`, `2026-03-01T10:30:00+01:00`) or Unix milliseconds from 2008
/// to 2100; `action` is `shown`, `deferred` or `suppressed` (any case). An empty value is a missing one. Each line
/// is an event or a refusal with its reason and a sentence saying what is wrong.
struct MessageLogParser {
    /// What one line is.
    enum Line: Equatable {
        /// The CSV header.
        case header
        case event(MessageEvent)
        case refused(Rejection.Reason, String)
    }

    /// The file's form, once its first line is read.
    private enum Form {
        case undecided
        case jsonLines
        /// The position of each column the log uses, and how many fields a row has.
        case csv(columns: Columns, width: Int)
        /// The first line is neither a JSON object nor a usable header: every line is refused with this sentence.
        case unusable(String)
    }

    private struct Columns {
        var originalTransactionId: Int?
        var appAccountToken: Int?
        var at: Int
        var action: Int
        var arm: Int?
    }

    private var form = Form.undecided

    /// Reads one non-blank line (its bytes without the line end).
    mutating func read(_ bytes: [UInt8]) -> Line {
        if bytes.contains(0) { return .refused(.nulByte, "the line contains a NUL byte") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused(.invalidUTF8, "the line is not valid UTF-8")
        }
        switch form {
        case .undecided:
            if text.utf8.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) == UInt8(ascii: "{") {
                form = .jsonLines
                return Self.jsonEvent(text)
            }
            return readHeader(text)
        case .jsonLines:
            return Self.jsonEvent(text)
        case .csv(let columns, let width):
            return Self.csvEvent(text, columns: columns, width: width)
        case .unusable(let why):
            return .refused(.messageMalformed, why)
        }
    }

    // MARK: - CSV

    private mutating func readHeader(_ text: String) -> Line {
        guard let fields = Self.csvFields(text) else {
            form = .unusable("the file's first line is not a CSV header (an unclosed quote)")
            return .refused(.messageMalformed, "not a CSV header: an unclosed quote")
        }
        var positions: [String: Int] = [:]
        for (index, field) in fields.enumerated() where positions[field] == nil {
            positions[field] = index
        }
        let hasSubscription = positions["original_transaction_id"] != nil || positions["app_account_token"] != nil
        guard let at = positions["at"], let action = positions["action"], hasSubscription else {
            let missing =
                ["at", "action"].filter { positions[$0] == nil }
                + (hasSubscription ? [] : ["original_transaction_id or app_account_token"])
            let why =
                "the first line is not a message log's header: it lacks \(missing.joined(separator: ", ")) "
                + "(a CSV header such as original_transaction_id,at,action,arm, or JSON Lines)"
            form = .unusable("the file's first line is not a message log's header (see that line's refusal)")
            return .refused(.messageMalformed, why)
        }
        form = .csv(
            columns: Columns(
                originalTransactionId: positions["original_transaction_id"],
                appAccountToken: positions["app_account_token"], at: at, action: action, arm: positions["arm"]),
            width: fields.count)
        return .header
    }

    private static func csvEvent(_ text: String, columns: Columns, width: Int) -> Line {
        guard let fields = csvFields(text) else {
            return .refused(.messageMalformed, "not a CSV row: an unclosed quote")
        }
        guard fields.count == width else {
            return .refused(.messageMalformed, "\(fields.count) fields where the header has \(width)")
        }
        func value(_ index: Int?) -> String? {
            guard let index, !fields[index].isEmpty else { return nil }
            return fields[index]
        }
        return event(
            originalTransactionId: value(columns.originalTransactionId),
            appAccountToken: value(columns.appAccountToken), at: value(columns.at).map(Time.text),
            action: value(columns.action), arm: value(columns.arm))
    }

    /// The fields of one CSV line; nil when a quoted field is not closed.
    static func csvFields(_ text: String) -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var wasQuoted = false
        let bytes = Array(text.utf8)
        var index = 0
        func finish() {
            var value = field[...]
            if !wasQuoted {
                while value.first == UInt8(ascii: " ") || value.first == UInt8(ascii: "\t") {
                    value = value.dropFirst()
                }
                while value.last == UInt8(ascii: " ") || value.last == UInt8(ascii: "\t") { value = value.dropLast() }
            }
            fields.append(String(decoding: value, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: ",") {
                finish()
            } else if byte == UInt8(ascii: "\""), field.allSatisfy({ $0 == UInt8(ascii: " ") }) {
                // A quote that opens the field (after spaces only).
                field.removeAll(keepingCapacity: true)
                quoted = true
                wasQuoted = true
            } else {
                field.append(byte)
            }
            index += 1
        }
        guard !quoted else { return nil }
        finish()
        return fields
    }

    // MARK: - JSON Lines

    /// A JSON member that may be a string or a whole number (or null, or absent).
    private enum Scalar: Decodable {
        case text(String)
        case number(Int64)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let number = try? container.decode(Int64.self) {
                self = .number(number)
            } else {
                throw DecodingError.typeMismatch(
                    Scalar.self,
                    DecodingError.Context(
                        codingPath: decoder.codingPath, debugDescription: "expected a string or a whole number"))
            }
        }

        var text: String? {
            switch self {
            case .text(let text): return text.isEmpty ? nil : text
            case .number(let number): return String(number)
            }
        }
    }

    private struct JSONEvent: Decodable {
        var originalTransactionId: Scalar?
        var appAccountToken: Scalar?
        var at: Scalar?
        var action: Scalar?
        var arm: Scalar?

        enum CodingKeys: String, CodingKey {
            case originalTransactionId = "original_transaction_id"
            case appAccountToken = "app_account_token"
            case at, action, arm
        }
    }

    private static func jsonEvent(_ text: String) -> Line {
        let decoded: JSONEvent
        do {
            decoded = try JSONDecoder().decode(JSONEvent.self, from: Data(text.utf8))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            let name = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .refused(.messageMalformed, "\(name): expected a string or a whole number")
        } catch {
            return .refused(.messageMalformed, "not a JSON object")
        }
        let at: Time? =
            switch decoded.at {
            case .text(let text): text.isEmpty ? nil : Time.text(text)
            case .number(let number): .number(number)
            case nil: nil
            }
        return event(
            originalTransactionId: decoded.originalTransactionId?.text,
            appAccountToken: decoded.appAccountToken?.text, at: at, action: decoded.action?.text,
            arm: decoded.arm?.text)
    }

    // MARK: - The event

    /// `at` as the line gave it.
    private enum Time {
        case text(String)
        case number(Int64)
    }

    private static func event(
        originalTransactionId: String?, appAccountToken: String?, at: Time?, action: String?, arm: String?
    ) -> Line {
        guard originalTransactionId != nil || appAccountToken != nil else {
            return .refused(.messageNoSubscription, "neither original_transaction_id nor app_account_token")
        }
        var token: String?
        if let appAccountToken {
            token = MessageEvent.token(appAccountToken)
            guard token != nil else {
                return .refused(
                    .messageBadToken, "app_account_token \(quoted(appAccountToken)) is not a UUID")
            }
        }
        let milliseconds: Int64
        switch at {
        case nil:
            return .refused(.messageBadTime, "no at: when the app showed, deferred or suppressed the sheet")
        case .number(let number):
            guard case .instant(let value) = InstantText.milliseconds(digits: String(number)) else {
                return .refused(.messageBadTime, timeProblem(String(number)))
            }
            milliseconds = value
        case .text(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if InstantText.isDigits(trimmed) {
                guard case .instant(let value) = InstantText.milliseconds(digits: trimmed) else {
                    return .refused(.messageBadTime, timeProblem(trimmed))
                }
                milliseconds = value
            } else {
                guard let value = InstantText.milliseconds(iso8601: trimmed),
                    InstantText.plausibleMilliseconds.contains(value)
                else {
                    return .refused(.messageBadTime, timeProblem(trimmed))
                }
                milliseconds = value
            }
        }
        guard let action else {
            return .refused(.messageBadAction, "no action: shown, deferred or suppressed")
        }
        guard let known = MessageEvent.Action(rawValue: action.lowercased()) else {
            return .refused(.messageBadAction, "action \(quoted(action)) is not shown, deferred or suppressed")
        }
        return .event(
            MessageEvent(
                originalTransactionId: originalTransactionId, appAccountToken: token, at: milliseconds, action: known,
                arm: arm))
    }

    private static func timeProblem(_ text: String) -> String {
        let expected =
            "an ISO 8601 instant with its zone (2026-03-01T09:30:00Z) or Unix milliseconds (1772357400000)"
        if InstantText.isDigits(text), InstantText.milliseconds(digits: text) == .seconds {
            return "at \(quoted(text)) looks like Unix seconds; give milliseconds (\(text)000) or an ISO 8601 "
                + "instant with its zone"
        }
        return "at \(quoted(text)) is not \(expected) from 2008 to 2100"
    }

    /// A value inside a sentence, cut to 60 characters.
    private static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? text.prefix(57) + "…" : text) + "\""
    }
}
