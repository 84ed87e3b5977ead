import Foundation
import Logging

/// One line of `--log-format json`: a JSON object with `time` (ISO 8601, UTC), `level`, `label`, `message` and
/// the record's fields, numbers as JSON numbers and booleans as JSON booleans.
///
/// The one writer of JSON lines on stderr: log records (``StderrLogHandler``) and the command's own warnings and
/// errors (``Console``) come out the same way.
enum LogRecord {
    /// Writes the record to stderr as one line.
    static func write(level: Logger.Level, label: String, message: String, fields: Logger.Metadata) {
        var object: [String: JSONValue] = [:]
        for (key, value) in fields { object[key] = JSONValue(value) }
        object["time"] = .string(timestamp())
        object["level"] = .string(level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(message)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(object) else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}

/// A JSON value of a log field.
enum JSONValue: Encodable, Equatable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Strings stay strings; a value logged as `.stringConvertible` that is an integer, a finite floating-point
    /// number or a Bool becomes that JSON type.
    init(_ value: Logger.MetadataValue) {
        switch value {
        case .string(let text):
            self = .string(text)
        case .stringConvertible(let convertible):
            if let flag = convertible as? Bool {
                self = .bool(flag)
            } else if let integer = convertible as? any BinaryInteger, let exact = Int64(exactly: integer) {
                self = .integer(exact)
            } else if let real = convertible as? any BinaryFloatingPoint, Double(real).isFinite {
                self = .number(Double(real))
            } else {
                self = .string(convertible.description)
            }
        case .array(let values):
            self = .array(values.map(JSONValue.init))
        case .dictionary(let values):
            self = .object(values.mapValues(JSONValue.init))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let values): try container.encode(values)
        }
    }
}
