import Foundation

/// A JSON value as written, so that a test can tell `true` from `1`, `null` from `""` and `16` from `"16"`.
package enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The array of objects `text` holds, such as `churn query --format json` prints.
    package static func objects(_ text: String) throws -> [[String: JSONValue]] {
        try JSONDecoder().decode([[String: JSONValue]].self, from: Data(text.utf8))
    }
}
