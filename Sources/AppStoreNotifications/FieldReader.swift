/// Where a model reads its fields from: `JSONDecoder`'s keyed container, or an object the strict scanner recorded
/// (``ShallowDecoder/Fields``). Each model lists its fields once, in an initializer generic over the reader, so the
/// loader's usual path (scanned members) runs without the `Decoder` protocol's dynamic dispatch and both paths give
/// the same values by construction.
///
/// Every method gives nil for a missing key and for `null`.
protocol FieldReader<Key> {
    associatedtype Key: CodingKey

    /// A string.
    func field(_ key: Key) throws -> String?
    /// A Boolean.
    func field(_ key: Key) throws -> Bool?
    /// A 32-bit integer.
    func field(_ key: Key) throws -> Int32?
    /// A 64-bit integer.
    func field(_ key: Key) throws -> Int64?
    /// An array of strings.
    func field(_ key: Key) throws -> [String]?
    /// A nested object.
    func field<Value: ScannedDecodable>(_ key: Key) throws -> Value?
    /// A Unix time in milliseconds.
    func unixMilliseconds(_ key: Key) throws -> Int64?
}

extension FieldReader {
    /// An open enumeration of strings, read as its raw string: the value and the errors `OpenEnum.init(from:)` gives,
    /// without a decoder and a container of its own for each value.
    func field<Known: RawRepresentable & Hashable & Sendable>(_ key: Key) throws -> OpenEnum<Known>?
    where Known.RawValue == String {
        let raw: String? = try field(key)
        return raw.map(OpenEnum.init(rawValue:))
    }

    /// An open enumeration of 32-bit integers, read as its raw integer (see the string variant).
    func field<Known: RawRepresentable & Hashable & Sendable>(_ key: Key) throws -> OpenEnum<Known>?
    where Known.RawValue == Int32 {
        let raw: Int32? = try field(key)
        return raw.map(OpenEnum.init(rawValue:))
    }
}

/// A model that ``ShallowDecoder`` decodes from scanned members, and `JSONDecoder` through the same field list.
protocol ScannedDecodable: Decodable {
    associatedtype CodingKeys: CodingKey

    /// Reads the model's fields from either reader.
    /// - Throws: ``ShallowDecoder/Unsupported`` from a scanned object that `JSONDecoder` must decode instead; the
    ///   reader's errors otherwise.
    init(reading fields: some FieldReader<CodingKeys>) throws
}

extension ScannedDecodable {
    /// Reads the model's fields from `decoder`'s keyed container (`JSONDecoder`, and any other decoder).
    package init(from decoder: any Decoder) throws {
        try self.init(reading: decoder.container(keyedBy: CodingKeys.self))
    }

    /// Reads the model's fields from `object`.
    init(scanned object: ShallowDecoder.Object) throws {
        try self.init(reading: object.fields(keyedBy: CodingKeys.self))
    }
}

// The keyed container's `field(_:)` and `unixMilliseconds(_:)` (KeyedDecodingContainer+Fields.swift) meet the
// requirements, with these two.
extension KeyedDecodingContainer: FieldReader {
    func field(_ key: Key) throws -> [String]? {
        try decoded(key)
    }

    func field<Value: ScannedDecodable>(_ key: Key) throws -> Value? {
        try decoded(key)
    }
}
