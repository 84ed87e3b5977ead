import Foundation

/// Why a notification, transaction, renewal info or history page could not be decoded, and where.
///
/// A decoding failure concerns one record, not the run: the loader quarantines the record with ``reason`` and
/// ``detail`` and goes on.
package struct NotificationDecodingError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The kind of failure. The raw value is a short code stored as the quarantine reason.
    package enum Reason: String, CaseIterable, Sendable {
        /// The text is not a compact JWS: empty, or not three dot-separated parts.
        case notJWS = "not_jws"
        /// A JWS segment is not valid base64url.
        case badBase64 = "bad_base64"
        /// The JWS header is not a JSON object of the expected shape.
        case badHeader = "bad_header"
        /// The payload is not strict JSON that PostgreSQL can store as jsonb.
        case badJSON = "bad_json"
        /// A value has the wrong JSON type, such as a string where a number belongs.
        case wrongType = "wrong_type"
        /// A number does not fit its field, such as `1.5` for a quantity.
        case badValue = "bad_value"
        /// A field the loader needs is missing.
        case missingField = "missing_field"
    }

    /// The kind of failure.
    package var reason: Reason
    /// Where the failure is, as a dotted path with array indices (`data.signedTransactionInfo.price`,
    /// `notificationHistory[3].signedPayload`); nil when it concerns the whole text.
    package var codingPath: String?
    /// What is wrong, as a sentence for a person, starting with the path when there is one.
    package var detail: String

    /// Creates an error; `detail` should start with `codingPath` when there is one.
    package init(reason: Reason, codingPath: String?, detail: String) {
        self.reason = reason
        self.codingPath = codingPath
        self.detail = detail
    }

    package var description: String {
        "\(detail) [\(reason.rawValue)]"
    }
}

// MARK: - Building errors from lower-level failures

extension NotificationDecodingError {
    /// A JWS that could not be split or decoded, at `path` (nil for the outermost token).
    init(_ error: JWSError, at path: String?) {
        let reason: Reason =
            switch error {
            case .empty, .wrongSegmentCount: .notJWS
            case .badBase64: .badBase64
            case .badHeader: .badHeader
            }
        self.init(reason: reason, codingPath: path, detail: Self.prefix(path) + error.description)
    }

    /// Text that is not strict JSON, at `path` (nil for the outermost payload).
    init(_ error: JSONScanner.SyntaxError, at path: String?) {
        self.init(
            reason: .badJSON,
            codingPath: path,
            detail: Self.prefix(path) + "invalid JSON at byte \(error.offset): \(error.message)"
        )
    }

    /// A required field that is absent.
    static func missingField(_ path: String, _ why: String) -> Self {
        Self(reason: .missingField, codingPath: path, detail: "\(path) is missing: \(why)")
    }

    /// A `DecodingError` from decoding `json`, whose root lies at `path` (nil for the outermost payload).
    ///
    /// The value actually found is read back from `json`, so the detail says what was there ("found a string").
    init(_ error: DecodingError, json: Data, at path: String?) {
        let found = { (codingPath: [any CodingKey]) -> String in
            JSONProbe.read(json)?.value(at: codingPath[...])?.phrase ?? "nothing"
        }
        switch error {
        case .typeMismatch(let type, let context):
            let location = Self.join(path, context.codingPath)
            let expected = Self.expectation(type)
            self.init(
                reason: .wrongType,
                codingPath: location,
                detail: Self.subject(location) + "expected \(expected), found \(found(context.codingPath))"
            )
        case .valueNotFound(let type, let context):
            let location = Self.join(path, context.codingPath)
            self.init(
                reason: .wrongType,
                codingPath: location,
                detail: Self.subject(location) + "expected \(Self.expectation(type)), found null"
            )
        case .keyNotFound(let key, let context):
            let location = Self.join(path, context.codingPath + [key]) ?? key.stringValue
            self.init(reason: .missingField, codingPath: location, detail: "\(location) is missing")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Strict JSON already passed the scanner: JSONDecoder could not represent some number deep inside.
            self.init(
                reason: .badValue,
                codingPath: path,
                detail: Self.subject(path) + "a number cannot be represented in the type its field requires"
            )
        case .dataCorrupted(let context):
            let location = Self.join(path, context.codingPath)
            self.init(
                reason: .badValue,
                codingPath: location,
                detail: Self.subject(location) + "\(found(context.codingPath)) does not fit this field (too large, or "
                    + "not a whole number)"
            )
        @unknown default:
            self.init(reason: .badJSON, codingPath: path, detail: Self.subject(path) + "the JSON could not be decoded")
        }
    }

    // MARK: Wording

    /// `"data.signedTransactionInfo: "`, or nothing for the outermost text.
    private static func prefix(_ path: String?) -> String {
        path.map { "\($0): " } ?? ""
    }

    /// `"data.status: "`, or `"the payload: "` for the outermost value.
    private static func subject(_ path: String?) -> String {
        "\(path ?? "the payload"): "
    }

    /// Appends a coding path to `path` as `a.b[3].c`; nil when both are empty.
    static func join(_ path: String?, _ codingPath: [any CodingKey]) -> String? {
        var text = path ?? ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? nil : text
    }

    /// The JSON a Swift type is decoded from, as a phrase.
    private static func expectation(_ type: Any.Type) -> String {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): return "a string"
        case ObjectIdentifier(Bool.self): return "true or false"
        case ObjectIdentifier(Date.self): return "a Unix time in milliseconds"
        case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self): return "a number"
        case ObjectIdentifier([String: Any].self): return "an object"
        case ObjectIdentifier([Any].self): return "an array"
        default: return type is any BinaryInteger.Type ? "an integer" : "a value of type \(type)"
        }
    }
}

/// Any JSON value, read back only to say what was found where decoding failed.
private enum JSONProbe: Decodable {
    case null
    case boolean
    case number(String)
    case string
    case object([String: JSONProbe])
    case array([JSONProbe])
    case unreadable

    static func read(_ json: Data) -> JSONProbe? {
        try? NotificationDecoder.sharedDecoder.decode(JSONProbe.self, from: json)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if (try? container.decode(Bool.self)) != nil {
            self = .boolean
        } else if let integer = try? container.decode(Int64.self) {
            self = .number("\(integer)")
        } else if let number = try? container.decode(Double.self) {
            self = .number("\(number)")
        } else if (try? container.decode(String.self)) != nil {
            self = .string
        } else if let object = try? container.decode([String: JSONProbe].self) {
            self = .object(object)
        } else if let array = try? container.decode([JSONProbe].self) {
            self = .array(array)
        } else {
            self = .unreadable
        }
    }

    func value(at path: ArraySlice<any CodingKey>) -> JSONProbe? {
        guard let key = path.first else { return self }
        switch self {
        case .object(let members):
            return members[key.stringValue]?.value(at: path.dropFirst())
        case .array(let elements):
            guard let index = key.intValue, elements.indices.contains(index) else { return nil }
            return elements[index].value(at: path.dropFirst())
        default:
            return nil
        }
    }

    var phrase: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .object: "an object"
        case .array: "an array"
        case .unreadable: "a number too large to read"
        }
    }
}
