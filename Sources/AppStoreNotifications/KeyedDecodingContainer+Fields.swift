import Foundation

// Field decoding for the models. Every model decodes its fields through these two helpers so that a value which
// cannot be read always fails with that field's coding path. Foundation's JSONDecoder reports a number that does not
// fit its Swift type (`1.5` for an Int32, `1e30` for an Int64) as "not valid JSON" at the document root, losing the
// path; `field(_:)` catches that at the field and rethrows it as `DecodingError.dataCorrupted` at the field's path.
extension KeyedDecodingContainer {
    /// Decodes an optional field of any decodable type (the `field(_:)` overloads below, for the scalar types, are
    /// the ``FieldReader`` requirements); missing keys and `null` give nil.
    /// - Throws: `DecodingError`, always carrying the path of the failing value.
    func decoded<Value: Decodable>(_ key: Key) throws -> Value? {
        try keepingPath(key) { try decodeIfPresent(Value.self, forKey: key) }
    }

    // Concrete overloads for the common scalar types: they call JSONDecoder's concrete decoding methods, which are
    // faster than its generic one.

    /// Decodes an optional string field.
    func field(_ key: Key) throws -> String? {
        try keepingPath(key) { try decodeIfPresent(String.self, forKey: key) }
    }

    /// Decodes an optional Boolean field.
    func field(_ key: Key) throws -> Bool? {
        try keepingPath(key) { try decodeIfPresent(Bool.self, forKey: key) }
    }

    /// Decodes an optional 32-bit integer field.
    func field(_ key: Key) throws -> Int32? {
        try keepingPath(key) { try decodeIfPresent(Int32.self, forKey: key) }
    }

    /// Decodes an optional 64-bit integer field.
    func field(_ key: Key) throws -> Int64? {
        try keepingPath(key) { try decodeIfPresent(Int64.self, forKey: key) }
    }

    /// Runs `decode`, turning a failure that is not a `DecodingError` into one at the path of `key`.
    private func keepingPath<Value>(_ key: Key, _ decode: () throws -> Value) throws -> Value {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath + [key],
                    debugDescription: "the value cannot be represented",
                    underlyingError: error
                )
            )
        }
    }

    /// Decodes an optional Unix time in milliseconds.
    ///
    /// Apple sends integers; StoreKit Testing in Xcode sends fractional milliseconds (`1697679936049.7297`), which are
    /// rounded down to whole milliseconds.
    /// - Throws: `DecodingError.typeMismatch` with type `Date` when the value is not a number, and
    ///   `DecodingError.dataCorrupted` when it lies outside the 64-bit range.
    func unixMilliseconds(_ key: Key) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        do {
            return try decode(Int64.self, forKey: key)
        } catch DecodingError.typeMismatch(_, let context) {
            throw DecodingError.typeMismatch(Date.self, context)
        } catch let error as DecodingError {
            throw error
        } catch {
            // A number, but not a 64-bit integer: fractional milliseconds, or out of range.
        }
        let milliseconds: Double
        do {
            milliseconds = try decode(Double.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw outOfRange(key, underlyingError: error)
        }
        guard let whole = Int64(exactly: milliseconds.rounded(.down)) else {
            throw outOfRange(key, underlyingError: nil)
        }
        return whole
    }

    private func outOfRange(_ key: Key, underlyingError: (any Error)?) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "the time lies outside the 64-bit millisecond range",
                underlyingError: underlyingError
            )
        )
    }
}
