/// An input that was refused: where it came from, why, and its raw text. Stored in the `quarantine` table.
package struct Rejection: Sendable {
    /// Why an input was refused. The raw value is stored in `quarantine.reason` and reported as
    /// `rejected_<reason>` in data quality.
    package enum Reason: String, Sendable, CaseIterable {
        /// The line is neither JSON nor a JWS.
        case notJSON = "not_json"
        /// A JSON line or document without `signedPayload` or `notificationHistory`.
        case noSignedPayload = "no_signed_payload"
        /// `signedPayload` (or a nested token) is not a three-part compact JWS.
        case notJWS = "not_jws"
        /// A JWS part is not valid base64url.
        case badBase64 = "bad_base64"
        /// A decoded payload is not valid JSON.
        case badJSON = "bad_json"
        /// The JWS header is not a JSON object of the expected shape.
        case badHeader = "bad_header"
        /// A field holds the wrong type (a string where a number belongs, …).
        case wrongType = "wrong_type"
        /// A number does not fit its field (too large, or not a whole number).
        case badValue = "bad_value"
        /// A field the store needs (notificationUUID, notificationType, signedDate) is missing.
        case missingField = "missing_field"
        /// `notificationUUID` is not a UUID.
        case badUUID = "bad_uuid"
        /// A date lies outside years 1–9999.
        case dateOutOfRange = "date_out_of_range"
        /// The line is not valid UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// The line contains a NUL byte (or JSON `\u0000`), which PostgreSQL text cannot hold.
        case nulByte = "nul_byte"
        /// The line is longer than the largest record allowed.
        case recordTooLarge = "record_too_large"
        /// Compressed data that ends early or is corrupt; the records before it are loaded.
        case truncatedInput = "truncated_input"
        /// PostgreSQL refused the row (the detail holds its message).
        case rejectedByDatabase = "rejected_by_database"
        // Signature verification.
        case badAlgorithm = "bad_algorithm"
        case missingX5C = "missing_x5c"
        case badCertificate = "bad_certificate"
        case untrustedChain = "untrusted_chain"
        case wrongOID = "wrong_oid"
        case certificateNotValidAtSignedDate = "certificate_not_valid_at_signed_date"
        case badSignature = "bad_signature"
        // Filters the user asked for.
        case wrongBundleID = "wrong_bundle_id"
        case wrongEnvironment = "wrong_environment"
        // The app's message log (`churn messages load`).
        /// A message-log line that is neither a row of its file's CSV header nor a JSON object, or a file without a
        /// usable header.
        case messageMalformed = "message_malformed"
        /// A message-log event with neither `original_transaction_id` nor `app_account_token`.
        case messageNoSubscription = "message_no_subscription"
        /// A message-log event whose `app_account_token` is not a UUID.
        case messageBadToken = "message_bad_token"
        /// A message-log event without `at`, or one that is neither an ISO 8601 instant with its zone nor Unix
        /// milliseconds from 2008 to 2100.
        case messageBadTime = "message_bad_time"
        /// A message-log event whose `action` is not `shown`, `deferred` or `suppressed`.
        case messageBadAction = "message_bad_action"

        /// The reasons of an input whose signature was checked and failed.
        package static let signatureReasons: [Reason] = [
            .badAlgorithm, .missingX5C, .badCertificate, .untrustedChain, .wrongOID, .certificateNotValidAtSignedDate,
            .badSignature,
        ]

        /// The reasons of an input that passed verification and was then left out by the load's filters.
        package static let filterReasons: [Reason] = [.wrongBundleID, .wrongEnvironment]
    }

    /// The notification a refused input held, when it was decoded before it was refused (its signature was not
    /// trusted, or its bundle id or environment is one the load was told to leave out).
    package struct Notification: Hashable, Sendable {
        /// `original_transaction_id`: '' for a notification without a subscription.
        package var subscription: String
        /// `notificationUUID`, a valid UUID.
        package var uuid: String
        /// `signedDate`, Unix milliseconds inside the years 1–9999.
        package var signedDate: Int64
        /// Its environment, as `notifications.environment` would hold it.
        package var environment: String?

        package init(subscription: String, uuid: String, signedDate: Int64, environment: String?) {
            self.subscription = subscription
            self.uuid = uuid
            self.signedDate = signedDate
            self.environment = environment
        }
    }

    package var reason: Reason
    /// A sentence for a person: what is wrong and where (`data.signedTransactionInfo.price: expected …`).
    package var detail: String
    /// 1-based line of the input file.
    package var line: Int
    /// Position within a Get Notification History page, when the input was one.
    package var item: Int?
    /// The raw input (a bounded prefix of it).
    package var raw: [UInt8]
    /// The full length of the raw input in bytes.
    package var rawLength: Int
    /// The notification it held, when it was decoded.
    package var notification: Notification?

    package init(
        reason: Reason, detail: String, line: Int, item: Int? = nil, raw: [UInt8], rawLength: Int? = nil,
        notification: Notification? = nil
    ) {
        self.notification = notification
        self.reason = reason
        self.detail = detail
        self.line = line
        self.item = item
        self.raw = raw
        self.rawLength = rawLength ?? raw.count
    }

    /// Where, for messages: `file:line`, or `file:line (notificationHistory[3])` for an item of a history page.
    package func location(in file: String) -> String {
        var text = "\(file):\(line)"
        if let item { text += " (notificationHistory[\(item)])" }
        return text
    }
}

extension Rejection.Reason {
    /// Reasons that depend on the options of the load rather than on the input alone (the trust roots, `--bundle-id`,
    /// `--environment`, `--max-record-bytes`): a load with other options may accept the same input. `churn nightly`
    /// loads a file refused for one of them again once the options change, and a refusal for one of them whose
    /// notification a later load stores is resolved.
    package static let mendable: Set<Self> = [.untrustedChain, .wrongBundleID, .wrongEnvironment, .recordTooLarge]
}

extension Rejection.Reason {
    /// The option that decides a ``mendable`` reason, as the command line spells it; nil for the others.
    package var option: String? {
        switch self {
        case .untrustedChain: return "--trust-root"
        case .wrongBundleID: return "--bundle-id"
        case .wrongEnvironment: return "--environment"
        case .recordTooLarge: return "--max-record-bytes"
        default: return nil
        }
    }
}
