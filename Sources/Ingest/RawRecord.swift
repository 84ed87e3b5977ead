import Crypto

/// One unit of input: a line of a JSON Lines or JWS-per-line export, or a whole JSON document.
struct RawRecord: Sendable {
    /// 1-based line number where the record starts.
    var line: Int
    /// The record's bytes, without the line ending.
    var bytes: [UInt8]
    /// Set when the record was cut short or could not be read whole; it is quarantined with this reason.
    var problem: Rejection.Reason?
    /// The full length of the record in the input, even when ``bytes`` holds only a prefix.
    var length: Int
    /// The SHA-256 of the signed payload the line holds (``RecordShape/signedPayloadToken(_:)``), when the reader
    /// computed it to look the line up among the stored notifications (``StoredPayloads``).
    var signedPayloadSHA256: SHA256Digest?
}
