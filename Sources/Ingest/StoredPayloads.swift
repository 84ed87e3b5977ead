import Crypto
import PGClient

/// Stored notifications found by the SHA-256 of their signed payloads (`notifications.signed_payload_sha256`,
/// `sql/013_signed_payload_hashes.sql`): which of a batch's lines were stored before, byte for byte.
///
/// A line whose compact JWS has a stored notification's hash is that notification's signed text again: decoding it
/// gives the same key, signed date, environment and bundle id, and checking its signature under the same trust roots
/// gives the same verdict (the certificates are checked at the notification's own signed date). So the loader counts
/// such a line as a copy of the stored notification without decoding or verifying it, when the load that stored it
/// checked signatures as this one does and this load's filters accept it (``LoadOptions/acceptedUnchecked(_:)``).
enum StoredPayloads {
    /// The stored notification a signed payload was stored as.
    struct Match: Equatable, Sendable {
        var key: NotificationKey
        /// `signed_date`, Unix milliseconds: the line's own signed date, as decoding it would give.
        var signedDate: Int64
        var environment: String?
        var bundleID: String?
        /// `load_runs.acceptance` of the run that stored it: how that run checked signatures. Nil for a run before
        /// migration 010.
        var acceptance: String?
    }

    /// The SHA-256 of a signed payload as the export carries it: the compact JWS's bytes.
    static func digest(of token: ArraySlice<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        token.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize()
    }

    /// Which of `digests` are stored notifications' signed payloads, in one query through the hash's index.
    ///
    /// It needs no lock and no transaction: a notification once stored stays stored (a copy signed earlier takes
    /// its row under the same key, never removes the key), and what a match says (the key, the signed date) is a
    /// fact of the signed text, not of the database. So a match found before the batch's write still holds when the
    /// batch is written under the write lock, whatever other loads committed in between.
    /// - Returns: each stored digest's notification; digests not stored are absent.
    static func lookUp(_ digests: [SHA256Digest], connection: PGConnection) throws -> [SHA256Digest: Match] {
        guard !digests.isEmpty else { return [:] }
        var byHex: [String: SHA256Digest] = [:]
        // `{"\\x<hex>",…}`: bytea's hex input in a quoted array element, whose backslash is doubled. Written as
        // bytes: the escaping of `PGArray.texts`, character by character, cost a twentieth of a load of lines stored before.
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(digests.count * 69 + 2)
        for digest in digests {
            let text = hex(digest)
            byHex[text] = digest
            if literal.count > 1 { literal.append(UInt8(ascii: ",")) }
            literal += #""\\x"#.utf8
            literal += text.utf8
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        let result = try connection.execute(
            """
            SELECT encode(n.signed_payload_sha256, 'hex') AS sha256_hex, n.original_transaction_id,
                   n.notification_uuid::text AS notification_uuid,
                   (extract(epoch FROM n.signed_date) * 1000)::int8 AS signed_date_ms, n.environment, n.bundle_id,
                   r.acceptance
            FROM notifications n JOIN load_runs r ON r.id = n.load_run_id
            WHERE n.signed_payload_sha256 = ANY($1)
            """,
            [PGArray(literal: String(decoding: literal, as: UTF8.self), oid: PGArray.byteaArray)]
        )
        let fields = (
            hex: try result.field("sha256_hex"), subscription: try result.field("original_transaction_id"),
            uuid: try result.field("notification_uuid"), signedDate: try result.field("signed_date_ms"),
            environment: try result.field("environment"), bundleID: try result.field("bundle_id"),
            acceptance: try result.field("acceptance")
        )
        var matches: [SHA256Digest: Match] = [:]
        for row in result.rows {
            guard let digest = byHex[try row.decode(String.self, fields.hex)] else { continue }
            matches[digest] = Match(
                key: NotificationKey(
                    subscription: try row.decode(String.self, fields.subscription),
                    uuid: try row.decode(String.self, fields.uuid)),
                signedDate: try row.decode(Int64.self, fields.signedDate),
                environment: try row.decode(String?.self, fields.environment),
                bundleID: try row.decode(String?.self, fields.bundleID),
                acceptance: try row.decode(String?.self, fields.acceptance)
            )
        }
        return matches
    }

    /// The digest in lower-case hexadecimal, as `encode(…, 'hex')` prints it.
    static func hex(_ digest: SHA256Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
