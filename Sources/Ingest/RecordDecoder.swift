import AppStoreNotifications
import Crypto
import Foundation
import PGClient

/// Turns raw records into COPY rows or rejections. Pure and thread-safe: records are decoded on several threads.
struct RecordDecoder: Sendable {
    var policy: AcceptancePolicy
    var fileID: Int64
    var loadRunID: Int64
    /// How many bytes of a bad record the quarantine keeps.
    var keepBytes: Int

    func decode(_ record: RawRecord) -> DecodedRecord {
        var result = DecodedRecord()
        if let problem = record.problem {
            let detail: String
            switch problem {
            case .recordTooLarge: detail = "the record is \(record.length) bytes, more than the largest allowed"
            default: detail = String(decoding: record.bytes, as: UTF8.self)
            }
            reject(
                problem, detail, record, item: nil, raw: problem == .truncatedInput ? [] : record.bytes, into: &result)
            return result
        }
        let bytes = record.bytes
        // The common shapes are recognised on the bytes, without building a String of the whole line.
        let trimmed = RecordShape.trimmedRange(bytes)
        if let token = RecordShape.fastSignedPayload(bytes, trimmed) ?? RecordShape.bareToken(bytes, trimmed) {
            decodeSignedPayload(bytes[token], record, item: nil, digest: record.signedPayloadSHA256, into: &result)
            return result
        }
        if bytes.contains(0) {
            reject(.nulByte, "the line contains a NUL byte", record, item: nil, raw: bytes, into: &result)
            return result
        }
        guard let text = String(validating: bytes[trimmed], as: UTF8.self) else {
            reject(.invalidUTF8, "the line is not valid UTF-8", record, item: nil, raw: bytes, into: &result)
            return result
        }
        switch text.utf8.first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            decodeEnvelope(text, record, into: &result)
        case UInt8(ascii: "\""):
            // A JSON string holding the token.
            guard let token = try? JSONDecoder().decode(String.self, from: Data(text.utf8)) else {
                reject(
                    .notJSON, "the line starts with a quote but is not a JSON string", record, item: nil, raw: bytes,
                    into: &result)
                return result
            }
            decodeSignedPayload(Array(token.utf8)[...], record, item: nil, into: &result)
        default:
            reject(.notJSON, "the line is neither JSON nor a JWS", record, item: nil, raw: bytes, into: &result)
        }
        return result
    }

    // MARK: - Envelopes

    /// `{"signedPayload": …}`, a Get Notification History page, or a JSON array of either.
    private func decodeEnvelope(_ text: String, _ record: RawRecord, into result: inout DecodedRecord) {
        let data = Data(text.utf8)
        let envelopes: [ExportEnvelope]
        let isArray = text.utf8.first == UInt8(ascii: "[")
        do {
            envelopes =
                isArray
                ? try JSONDecoder().decode([ExportEnvelope].self, from: data)
                : [try JSONDecoder().decode(ExportEnvelope.self, from: data)]
        } catch let error as DecodingError {
            let (reason, detail) = Self.describe(error)
            reject(reason, detail, record, item: nil, raw: record.bytes, into: &result)
            return
        } catch {
            reject(.notJSON, "the line is not valid JSON", record, item: nil, raw: record.bytes, into: &result)
            return
        }
        var item = 0
        for (index, envelope) in envelopes.enumerated() {
            let arrayItem: Int? = isArray ? index : nil
            if let token = envelope.signedPayload {
                decodeSignedPayload(
                    Array(token.utf8)[...], record,
                    item: arrayItem ?? (envelope.notificationHistory == nil ? nil : item),
                    into: &result
                )
                item += 1
            }
            if let history = envelope.notificationHistory {
                for entry in history {
                    if let token = entry.signedPayload {
                        decodeSignedPayload(Array(token.utf8)[...], record, item: item, into: &result)
                    } else {
                        reject(
                            .noSignedPayload, "notificationHistory[\(item)] has no signedPayload", record, item: item,
                            raw: [], into: &result)
                    }
                    item += 1
                }
            }
            if envelope.signedPayload == nil && envelope.notificationHistory == nil {
                reject(
                    .noSignedPayload,
                    "the JSON has neither \"signedPayload\" nor \"notificationHistory\"",
                    record, item: arrayItem, raw: record.bytes, into: &result
                )
            }
        }
    }

    private static func describe(_ error: DecodingError) -> (Rejection.Reason, String) {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return (
                .wrongType, "\(path.isEmpty ? "the line" : path) has the wrong type (signedPayload must be a string)"
            )
        case .dataCorrupted:
            return (.notJSON, "the line is not valid JSON")
        default:
            return (.notJSON, "the line is not valid JSON")
        }
    }

    // MARK: - Notifications

    /// Decodes, verifies and filters one signed payload, and encodes it as a row or refuses it.
    /// - Parameter digest: the token's SHA-256 when the reader computed it already; else it is computed here, for a
    ///   token that is stored.
    private func decodeSignedPayload(
        _ token: ArraySlice<UInt8>, _ record: RawRecord, item: Int?, digest: SHA256Digest? = nil,
        into result: inout DecodedRecord
    ) {
        let raw = item == nil ? record.bytes : Array(token.prefix(keepBytes))
        let decoded: DecodedNotification
        do {
            decoded = try NotificationDecoder.decodeSignedPayload(bytes: token)
        } catch {
            reject(Rejection.Reason(error.reason), error.detail, record, item: item, raw: raw, into: &result)
            return
        }
        if let verifier = policy.verifier {
            let signedDate = Date(timeIntervalSince1970: Double(decoded.payload.signedDate ?? 0) / 1000)
            do {
                try verifier.verify(decoded.jws, at: signedDate)
                if policy.verifiesNestedTokens {
                    for nested in [decoded.transactionJWS, decoded.renewalInfoJWS, decoded.appTransactionJWS] {
                        if let nested { try verifier.verify(nested, at: signedDate) }
                    }
                }
            } catch {
                reject(
                    Rejection.Reason(error.reason), error.detail, record, item: item, raw: raw,
                    notification: Self.identity(of: decoded), into: &result
                )
                return
            }
        }
        if let (reason, detail) = policy.refusal(
            bundleID: NotificationRow.bundleID(of: decoded.payload),
            environment: NotificationRow.environment(of: decoded.payload)
        ) {
            reject(
                reason, detail, record, item: item, raw: raw, notification: Self.identity(of: decoded), into: &result)
            return
        }
        // The document needs no check for `\u0000` (which jsonb refuses): every part of it passed the strict
        // JSON scanner, which refuses that escape.
        let mark = result.rows.count
        do {
            try NotificationRow.encode(
                decoded, verified: policy.verifier != nil, fileID: fileID, line: record.line, loadRunID: loadRunID,
                signedPayloadSHA256: digest ?? StoredPayloads.digest(of: token), into: &result.rows
            )
            result.rowCount += 1
        } catch {
            result.rows.truncate(to: mark)
            reject(error.reason, error.detail, record, item: item, raw: raw, into: &result)
        }
    }

    private func reject(
        _ reason: Rejection.Reason,
        _ detail: String,
        _ record: RawRecord,
        item: Int?,
        raw: [UInt8],
        notification: Rejection.Notification? = nil,
        into result: inout DecodedRecord
    ) {
        result.rejections.append(
            Rejection(
                reason: reason, detail: detail, line: record.line, item: item,
                raw: Array(raw.prefix(keepBytes)), rawLength: item == nil ? record.length : raw.count,
                notification: notification
            )
        )
    }

    /// The notification a decoded payload is, for a refusal after decoding; nil when it has no valid UUID or no
    /// signed date that PostgreSQL can store.
    private static func identity(of decoded: DecodedNotification) -> Rejection.Notification? {
        guard let uuid = decoded.payload.notificationUUID, UUIDText.isValid(uuid),
            let signedDate = decoded.payload.signedDate, PGTimestamp.isInRange(milliseconds: signedDate)
        else { return nil }
        return Rejection.Notification(
            subscription: NotificationRow.subscription(of: decoded), uuid: uuid.lowercased(), signedDate: signedDate,
            environment: NotificationRow.environment(of: decoded.payload)
        )
    }
}

/// One JSON line or array element of an export.
private struct ExportEnvelope: Decodable {
    var signedPayload: String?
    var notificationHistory: [NotificationHistoryResponseItem]?
}
