import Foundation

/// Decodes the models straight from the members ``JSONScanner`` recorded while checking a payload, without
/// parsing it again: Foundation's `JSONDecoder` builds a map of the whole text first, which made it the largest cost
/// of a load after the signature.
///
/// It handles the shape Apple's payloads have: strings without escapes, integers, booleans and `null`, in the
/// top-level object and in objects directly inside it. Anything else (an escape, a fraction, an array, a deeper
/// object, a key with escapes) throws ``Unsupported``, and the caller decodes with `JSONDecoder` instead. So wherever
/// this decoder succeeds, its value must equal `JSONDecoder`'s: a test compares the two on every sample and on
/// hand-made edge cases.
enum ShallowDecoder {
    /// This decoder cannot decode the value the way `JSONDecoder` would; use `JSONDecoder`.
    struct Unsupported: Error {}

    /// Decodes `Value` from a scanned document whose top-level value is an object.
    /// - Throws: ``Unsupported`` when `JSONDecoder` must decode it; the model's own errors otherwise.
    static func decode<Value: ScannedDecodable>(
        _ type: Value.Type,
        bytes: UnsafeRawBufferPointer,
        members: [JSONScanner.Member]
    ) throws -> Value {
        guard bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{"),
            !members.contains(where: \.keyHasEscapes)
        else { throw Unsupported() }
        return try Value(scanned: Object(document: Document(bytes: bytes, members: members), parent: -1))
    }

    /// A scanned text and its members, valid while the buffer is.
    struct Document {
        let bytes: UnsafeRawBufferPointer
        let members: [JSONScanner.Member]

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
        func key(of member: JSONScanner.Member, is name: UnsafeRawBufferPointer) -> Bool {
            guard member.key.count == name.count, let base = bytes.baseAddress, let other = name.baseAddress else {
                return member.key.isEmpty && name.isEmpty
            }
            return memcmp(base + member.key.lowerBound, other, name.count) == 0
        }
    }

    /// An object of a scanned document: the top-level one, or one directly inside it.
    struct Object {
        let document: Document
        /// The indexes of the object's members.
        let members: [Int]
        /// Each member's ``fingerprint(_:)``, in the order of ``members``: a model reads some thirty keys of an
        /// object of as many members, and comparing one word per member finds each without comparing key bytes.
        let fingerprints: [UInt64]

        /// The object held by the member at `parent`, or the top-level object for -1.
        init(document: Document, parent: Int) {
            self.document = document
            self.members = document.members.indices.filter { document.members[$0].parent == parent }
            self.fingerprints = members.map { index in
                Self.fingerprint(UnsafeRawBufferPointer(rebasing: document.bytes[document.members[index].key]))
            }
        }

        /// The object's members, read by the keys of a model.
        func fields<Key: CodingKey>(keyedBy _: Key.Type) -> Fields<Key> {
            Fields(object: self)
        }

        /// The index of the member whose key is `name`, if any.
        func index(of name: UnsafeRawBufferPointer) -> Int? {
            let wanted = Self.fingerprint(name)
            for (position, fingerprint) in fingerprints.enumerated() where fingerprint == wanted {
                let index = members[position]
                if document.key(of: document.members[index], is: name) { return index }
            }
            return nil
        }

        /// One word per key: the low byte of its length in the top byte, its first seven bytes below. Equal keys
        /// have equal fingerprints; keys that share one are told apart by their bytes.
        static func fingerprint(_ key: UnsafeRawBufferPointer) -> UInt64 {
            let length = UInt64(truncatingIfNeeded: key.count) << 56
            if key.count >= 8 {
                return length | (UInt64(littleEndian: key.loadUnaligned(as: UInt64.self)) & 0x00FF_FFFF_FFFF_FFFF)
            }
            var word: UInt64 = 0
            for offset in 0..<key.count {
                word |= UInt64(key[offset]) << (offset * 8)
            }
            return length | word
        }
    }

    /// A ``FieldReader`` over a scanned object.
    struct Fields<Key: CodingKey>: FieldReader {
        let object: Object

        private var document: Document { object.document }

        /// The index of the member with `key` unless it is missing or `null`.
        private func index(_ key: Key) -> Int? {
            var name = key.stringValue
            let index = name.withUTF8 { object.index(of: UnsafeRawBufferPointer($0)) }
            guard let index, document.members[index].kind != .null else { return nil }
            return index
        }

        private func member(_ key: Key) -> JSONScanner.Member? {
            index(key).map { document.members[$0] }
        }

        func field(_ key: Key) throws -> String? {
            try member(key).map(document.text)
        }

        func field(_ key: Key) throws -> Bool? {
            try member(key).map(document.bool)
        }

        func field(_ key: Key) throws -> Int32? {
            try member(key).map { try document.integer($0, as: Int32.self) }
        }

        func field(_ key: Key) throws -> Int64? {
            try member(key).map { try document.integer($0, as: Int64.self) }
        }

        /// Arrays are not recorded: `JSONDecoder` decodes a model that has one.
        func field(_ key: Key) throws -> [String]? {
            guard member(key) == nil else { throw Unsupported() }
            return nil
        }

        /// Only the objects directly inside the top-level one have their members recorded.
        func field<Value: ScannedDecodable>(_ key: Key) throws -> Value? {
            guard let index = index(key) else { return nil }
            let member = document.members[index]
            guard member.kind == .object, member.parent == -1 else { throw Unsupported() }
            return try Value(scanned: Object(document: document, parent: index))
        }

        /// Fractional milliseconds (Xcode's) are left to `JSONDecoder`, which rounds them.
        func unixMilliseconds(_ key: Key) throws -> Int64? {
            try field(key)
        }
    }
}
