/// A wire enumeration that keeps values this code does not know yet.
///
/// Apple adds notification types, subtypes and other enum values over time. A closed Swift enum would reject a
/// whole notification for one new value; `OpenEnum` keeps the raw value instead, so it can be stored and re-encoded
/// verbatim. Switch on `.known(.didRenew)` / `.unknown(let raw)`, and store ``rawValue`` (never a Swift case name).
///
/// Two values are equal when their raw values are equal, so `.unknown("DID_RENEW")` equals `.known(.didRenew)`.
package enum OpenEnum<Known: RawRepresentable & Hashable & Sendable>: Hashable, Sendable
where Known.RawValue: Codable & Hashable & Sendable {
    /// A value this code knows.
    case known(Known)
    /// A value this code does not know, kept as it came on the wire.
    case unknown(Known.RawValue)

    /// Wraps a raw value, as ``known(_:)`` when `Known` has a case for it, else as ``unknown(_:)``.
    package init(rawValue: Known.RawValue) {
        if let known = Known(rawValue: rawValue) {
            self = .known(known)
        } else {
            self = .unknown(rawValue)
        }
    }

    /// The value as it appears on the wire.
    package var rawValue: Known.RawValue {
        switch self {
        case .known(let known): known.rawValue
        case .unknown(let raw): raw
        }
    }

    /// The known case, or nil for a value this code does not know.
    package var known: Known? {
        switch self {
        case .known(let known): known
        case .unknown(let raw): Known(rawValue: raw)
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}

extension OpenEnum: Codable {
    /// Decodes the bare raw value (`"DID_RENEW"`, `2`), never a keyed representation.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(Known.RawValue.self))
    }

    /// Encodes the bare raw value, so unknown values leave exactly as they came.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension OpenEnum: CustomStringConvertible {
    /// The raw value as text, as it appears on the wire.
    package var description: String {
        "\(rawValue)"
    }
}
