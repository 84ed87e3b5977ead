import Foundation

/// Decodes the models straight from the members ``JSONScanner`` recorded while checking a payload, without
/// parsing it again: Foundation's `JSONDecoder` builds a map of the whole text first, which made it the largest cost
/// of a load after the signature.
///
/// It handles the shape Apple's payloads have: strings without escapes, integers, booleans and `null`, in the
/// top-level object and in objects directly inside it. Anything else (an escape, a fraction, an array, a deeper
/// object, a missing key where the model requires one, a key with escapes) throws ``Unsupported``, and the caller
/// decodes with `JSONDecoder` instead. So wherever this decoder succeeds, its value must equal `JSONDecoder`'s: a
/// test compares the two on every sample and on hand-made edge cases.
struct ShallowDecoder: Decoder {
    /// This decoder cannot decode the value the way `JSONDecoder` would; use `JSONDecoder`.
    struct Unsupported: Error {}

    /// The scanned text and its members, valid while the buffer is.
    final class Document {
        let bytes: UnsafeRawBufferPointer
        let members: [JSONScanner.Member]

        init(bytes: UnsafeRawBufferPointer, members: [JSONScanner.Member]) {
            self.bytes = bytes
            self.members = members
        }

        /// The indexes of the members of the object that `parent` (a member index, or -1 for the top level) holds.
        func children(of parent: Int) -> [Int] {
            members.indices.filter { members[$0].parent == parent }
        }

        func text(_ member: JSONScanner.Member) throws -> String {
            guard member.kind == .string else { throw Unsupported() }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[member.value]), as: UTF8.self)
        }

        func bool(_ member: JSONScanner.Member) throws -> Bool {
            switch member.kind {
            case .true: return true
            case .false: return false
            default: throw Unsupported()
            }
        }

        /// An integer member as `Value`, when it fits exactly.
        func integer<Value: FixedWidthInteger>(_ member: JSONScanner.Member, as _: Value.Type) throws -> Value {
            guard member.kind == .integer else { throw Unsupported() }
            var index = member.value.lowerBound
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var magnitude: Int64 = 0
            while index < member.value.upperBound {
                let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(digit)
                guard !overflow1, !overflow2 else { throw Unsupported() }
                magnitude = sum
                index += 1
            }
            guard let value = Value(exactly: negative ? -magnitude : magnitude) else { throw Unsupported() }
            return value
        }

        /// Whether `member`'s key is `name`.
        func key(of member: JSONScanner.Member, is name: UnsafeBufferPointer<UInt8>) -> Bool {
            guard member.key.count == name.count, let base = bytes.baseAddress, let other = name.baseAddress else {
                return member.key.isEmpty && name.isEmpty
            }
            return memcmp(base + member.key.lowerBound, other, name.count) == 0
        }
    }

    /// What this decoder stands for: an object (the index of the member holding it, -1 for the top level) or one
    /// member's scalar value.
    enum Position {
        case object(Int)
        case value(Int)
    }

    let document: Document
    let position: Position

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `Value` from a scanned document whose top-level value is an object.
    /// - Throws: ``Unsupported`` when `JSONDecoder` must decode it; the model's own errors otherwise.
    static func decode<Value: Decodable>(
        _ type: Value.Type,
        bytes: UnsafeRawBufferPointer,
        members: [JSONScanner.Member]
    ) throws -> Value {
        guard bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{"),
            !members.contains(where: \.keyHasEscapes)
        else { throw Unsupported() }
        return try Value(from: ShallowDecoder(document: Document(bytes: bytes, members: members), position: .object(-1)))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let parent) = position else { throw Unsupported() }
        return KeyedDecodingContainer(Container<Key>(document: document, members: document.children(of: parent)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Unsupported()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard case .value(let index) = position else { throw Unsupported() }
        return SingleValue(document: document, index: index)
    }

    /// Decodes the member at `index` as `Value`: the scalar types directly, any other type through its own
    /// `init(from:)`.
    fileprivate static func decode<Value: Decodable>(_ type: Value.Type, at index: Int, in document: Document) throws -> Value {
        let member = document.members[index]
        if Value.self == String.self, let value = try document.text(member) as? Value { return value }
        if Value.self == Int64.self, let value = try document.integer(member, as: Int64.self) as? Value { return value }
        if Value.self == Int32.self, let value = try document.integer(member, as: Int32.self) as? Value { return value }
        if Value.self == Int.self, let value = try document.integer(member, as: Int.self) as? Value { return value }
        if Value.self == Bool.self, let value = try document.bool(member) as? Value { return value }
        switch member.kind {
        case .object where member.parent == -1:
            // Only objects directly inside the top-level one have their members recorded.
            return try Value(from: ShallowDecoder(document: document, position: .object(index)))
        case .string, .integer, .true, .false:
            return try Value(from: ShallowDecoder(document: document, position: .value(index)))
        case .object, .escapedString, .fraction, .null, .array:
            throw Unsupported()
        }
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let document: Document
        let members: [Int]

        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            members.compactMap { index in
                let key = document.members[index].key
                return Key(stringValue: String(decoding: UnsafeRawBufferPointer(rebasing: document.bytes[key]), as: UTF8.self))
            }
        }

        /// The index of the member with `key`, if the object has one.
        private func index(_ key: Key) -> Int? {
            var name = key.stringValue
            return name.withUTF8 { name in
                members.first { document.key(of: document.members[$0], is: name) }
            }
        }

        private func present(_ key: Key) throws -> Int {
            guard let index = index(key) else { throw Unsupported() }
            return index
        }

        /// The index of the member with `key` unless it is missing or `null`.
        private func nonNull(_ key: Key) -> Int? {
            guard let index = index(key), document.members[index].kind != .null else { return nil }
            return index
        }

        func contains(_ key: Key) -> Bool {
            index(key) != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            document.members[try present(key)].kind == .null
        }

        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            try ShallowDecoder.decode(type, at: try present(key), in: document)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.bool(document.members[try present(key)]) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try document.text(document.members[try present(key)]) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw Unsupported() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

        private func integer<Value: FixedWidthInteger>(_ key: Key) throws -> Value {
            try document.integer(document.members[try present(key)], as: Value.self)
        }

        func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
            guard let index = nonNull(key) else { return nil }
            return try ShallowDecoder.decode(type, at: index, in: document)
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            guard let index = nonNull(key) else { return nil }
            return try document.text(document.members[index])
        }

        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            guard let index = nonNull(key) else { return nil }
            return try document.integer(document.members[index], as: Int64.self)
        }

        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            guard let index = nonNull(key) else { return nil }
            return try document.integer(document.members[index], as: Int32.self)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            guard let index = nonNull(key) else { return nil }
            return try document.bool(document.members[index])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw Unsupported()
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw Unsupported()
        }

        func superDecoder() throws -> any Decoder {
            throw Unsupported()
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            throw Unsupported()
        }
    }

    private struct SingleValue: SingleValueDecodingContainer {
        let document: Document
        let index: Int

        var codingPath: [any CodingKey] { [] }

        private var member: JSONScanner.Member { document.members[index] }

        func decodeNil() -> Bool { member.kind == .null }

        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            // A scalar: a type that is not one of the scalars would decode it as a container, which JSONDecoder does.
            switch Value.self {
            case is String.Type, is Int64.Type, is Int32.Type, is Int.Type, is Bool.Type:
                return try ShallowDecoder.decode(type, at: index, in: document)
            default:
                throw Unsupported()
            }
        }

        func decode(_ type: Bool.Type) throws -> Bool { try document.bool(member) }
        func decode(_ type: String.Type) throws -> String { try document.text(member) }
        func decode(_ type: Double.Type) throws -> Double { throw Unsupported() }
        func decode(_ type: Float.Type) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type) throws -> Int { try document.integer(member, as: Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(member, as: Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(member, as: Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(member, as: Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(member, as: Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try document.integer(member, as: UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(member, as: UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(member, as: UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(member, as: UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(member, as: UInt64.self) }
    }
}
