import Foundation

/// Decodes App Store Server Notifications V2 and the App Store Server API's JSON into the models, without verifying
/// any signature.
///
/// Every entry point first checks that the JSON is strict (see `JSONScanner`), then decodes it. Failures come back as
/// ``NotificationDecodingError`` with a reason code and the failing field's path.
package enum NotificationDecoder {
    /// The one decoder configuration for Apple's JSON: the defaults, since dates are decoded as Unix milliseconds by
    /// the models themselves.
    package static func makeJSONDecoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// The encoder that writes the models back as Apple's JSON: sorted keys, `/` unescaped, dates as integers.
    package static func makeJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Shared by all calls: Foundation's `JSONDecoder` is `Sendable` and copies its options at the start of each
    /// `decode`, so concurrent use is safe and saves building a decoder per record.
    static let sharedDecoder = makeJSONDecoder()

    /// The nested tokens a notification may carry; their decoded JSON is spliced into the document.
    private enum NestedToken: Int, CaseIterable {
        case transaction, renewalInfo, appTransaction

        /// The top-level member that holds the token.
        var container: String {
            switch self {
            case .transaction, .renewalInfo: "data"
            case .appTransaction: "appData"
            }
        }

        /// The token's key inside ``container``.
        var key: String {
            switch self {
            case .transaction: "signedTransactionInfo"
            case .renewalInfo: "signedRenewalInfo"
            case .appTransaction: "signedAppTransactionInfo"
            }
        }

        /// `container.key`, the path errors name; made once, since each token's steps take it.
        var path: String { Self.paths[rawValue] }

        private static let paths = allCases.map { "\($0.container).\($0.key)" }
    }

    /// The fields the scanner locates, indexed by ``NestedToken/rawValue``.
    private static let nestedTokenFields = NestedToken.allCases.map { JSONScanner.Field($0.container, $0.key) }

    // MARK: Signed payloads

    /// How JSON that passed the strict check becomes the models.
    package enum Decoding: Sendable {
        /// From the members the check recorded (see `ShallowDecoder`) when the JSON has Apple's usual shape, else
        /// with `JSONDecoder`: the same values, several times faster.
        case shallowWhenPossible
        /// With `JSONDecoder` only.
        case foundation
        /// From the recorded members only; JSON of another shape fails with `badJSON`. For tests and benchmarks.
        case shallowOnly
    }

    /// Splits and decodes a notification's `signedPayload` and its nested tokens, and builds the storage document.
    ///
    /// The notification must have `notificationUUID`, `notificationType` and `signedDate`. A nested token that is
    /// not a JWS (`data.signedTransactionInfo: "garbage"`) fails with that field's path.
    /// - Parameters:
    ///   - token: the compact JWS, without surrounding white space.
    ///   - decoding: how the JSON becomes the models; every choice gives the same values.
    /// - Returns: the tokens, the decoded values and the storage document.
    /// - Throws: ``NotificationDecodingError``.
    /// - Important: Nothing is verified; see ``DecodedNotification``.
    package static func decodeSignedPayload(
        _ token: some StringProtocol,
        decoding: Decoding = .shallowWhenPossible
    ) throws(NotificationDecodingError) -> DecodedNotification {
        try decodeSignedPayload(bytes: Array(token.utf8)[...], decoding: decoding)
    }

    /// ``decodeSignedPayload(_:decoding:)`` for a token given as its UTF-8 bytes, as the loader reads it: a slice of
    /// the line, kept by the result's ``DecodedNotification/jws`` rather than copied.
    package static func decodeSignedPayload(
        bytes token: ArraySlice<UInt8>,
        decoding: Decoding = .shallowWhenPossible
    ) throws(NotificationDecodingError) -> DecodedNotification {
        let jws = try parse(bytes: token, at: nil)
        let scanned = try scan(jws.payload, at: nil, locating: nestedTokenFields)
        let payload = try decode(
            ResponseBodyV2DecodedPayload.self, from: jws.payload, scanned.members, at: nil, decoding)
        try requireNotificationFields(payload)

        var nestedParts: [(range: Range<Int>, part: StorageDocument.Part)] = []
        func decodeNested<Value: ScannedDecodable>(
            _ text: String?,
            _ nested: NestedToken
        ) throws(NotificationDecodingError) -> (jws: JWS, value: Value)? {
            guard let text else { return nil }
            let token = try parse(text, at: nested.path)
            let members = try scan(token.payload, at: nested.path).members
            let value = try decode(Value.self, from: token.payload, members, at: nested.path, decoding)
            guard let range = scanned.located[nested.rawValue] else {
                // Cannot happen: the scanner sees every string member the decoder sees (keys unescaped alike).
                throw NotificationDecodingError(
                    reason: .badJSON,
                    codingPath: nested.path,
                    detail: "\(nested.path): the token could not be located in the payload text"
                )
            }
            nestedParts.append((range, StorageDocument.Part(json: token.payload, members: members)))
            return (token, value)
        }

        let transaction: (jws: JWS, value: JWSTransactionDecodedPayload)? =
            try decodeNested(payload.data?.signedTransactionInfo, .transaction)
        let renewalInfo: (jws: JWS, value: JWSRenewalInfoDecodedPayload)? =
            try decodeNested(payload.data?.signedRenewalInfo, .renewalInfo)
        let appTransaction: (jws: JWS, value: AppTransaction)? =
            try decodeNested(payload.appData?.signedAppTransactionInfo, .appTransaction)

        return DecodedNotification(
            jws: jws,
            payload: payload,
            transaction: transaction?.value,
            transactionJWS: transaction?.jws,
            renewalInfo: renewalInfo?.value,
            renewalInfoJWS: renewalInfo?.jws,
            appTransaction: appTransaction?.value,
            appTransactionJWS: appTransaction?.jws,
            document: StorageDocument.write(
                StorageDocument.Part(json: jws.payload, members: scanned.members), replacing: nestedParts
            )
        )
    }

    /// Splits and decodes a signed transaction (`signedTransactionInfo`, or one from the App Store Server API).
    /// - Throws: ``NotificationDecodingError``.
    /// - Important: Nothing is verified.
    package static func decodeSignedTransaction(
        _ token: some StringProtocol
    ) throws(NotificationDecodingError) -> JWSTransactionDecodedPayload {
        let jws = try parse(token, at: nil)
        _ = try check(jws.payload, at: nil)
        return try decode(JWSTransactionDecodedPayload.self, from: jws.payload, at: nil)
    }

    /// Splits and decodes signed renewal info (`signedRenewalInfo`).
    /// - Throws: ``NotificationDecodingError``.
    /// - Important: Nothing is verified.
    package static func decodeSignedRenewalInfo(
        _ token: some StringProtocol
    ) throws(NotificationDecodingError) -> JWSRenewalInfoDecodedPayload {
        let jws = try parse(token, at: nil)
        _ = try check(jws.payload, at: nil)
        return try decode(JWSRenewalInfoDecodedPayload.self, from: jws.payload, at: nil)
    }

    /// Splits and decodes a signed app transaction (`signedAppTransactionInfo`).
    /// - Throws: ``NotificationDecodingError``.
    /// - Important: Nothing is verified.
    package static func decodeSignedAppTransaction(
        _ token: some StringProtocol
    ) throws(NotificationDecodingError) -> AppTransaction {
        let jws = try parse(token, at: nil)
        _ = try check(jws.payload, at: nil)
        return try decode(AppTransaction.self, from: jws.payload, at: nil)
    }

    // MARK: JSON

    /// Decodes a notification payload given as JSON (the payload of a `signedPayload`).
    ///
    /// The notification must have `notificationUUID`, `notificationType` and `signedDate`.
    /// - Throws: ``NotificationDecodingError``.
    package static func decodeNotification(
        from json: Data
    ) throws(NotificationDecodingError) -> ResponseBodyV2DecodedPayload {
        _ = try check(json, at: nil)
        let payload = try decode(ResponseBodyV2DecodedPayload.self, from: json, at: nil)
        try requireNotificationFields(payload)
        return payload
    }

    /// Decodes a transaction given as JSON (the payload of a `signedTransactionInfo`).
    /// - Throws: ``NotificationDecodingError``.
    package static func decodeTransaction(
        from json: Data
    ) throws(NotificationDecodingError) -> JWSTransactionDecodedPayload {
        _ = try check(json, at: nil)
        return try decode(JWSTransactionDecodedPayload.self, from: json, at: nil)
    }

    /// Decodes renewal info given as JSON (the payload of a `signedRenewalInfo`).
    /// - Throws: ``NotificationDecodingError``.
    package static func decodeRenewalInfo(
        from json: Data
    ) throws(NotificationDecodingError) -> JWSRenewalInfoDecodedPayload {
        _ = try check(json, at: nil)
        return try decode(JWSRenewalInfoDecodedPayload.self, from: json, at: nil)
    }

    /// Decodes one page of the Get Notification History response. The items' `signedPayload`s stay tokens: decode
    /// each with ``decodeSignedPayload(_:decoding:)``.
    /// - Throws: ``NotificationDecodingError``.
    package static func decodeHistoryPage(
        from json: Data
    ) throws(NotificationDecodingError) -> NotificationHistoryResponse {
        _ = try check(json, at: nil)
        return try decode(NotificationHistoryResponse.self, from: json, at: nil)
    }

    /// Decodes a Get All Subscription Statuses response. Its signed fields stay tokens.
    /// - Throws: ``NotificationDecodingError``.
    package static func decodeStatusResponse(from json: Data) throws(NotificationDecodingError) -> StatusResponse {
        _ = try check(json, at: nil)
        return try decode(StatusResponse.self, from: json, at: nil)
    }

    /// Decodes a Get Transaction History answer; its signed transactions stay tokens.
    package static func decodeHistoryResponse(from json: Data) throws(NotificationDecodingError) -> HistoryResponse {
        _ = try check(json, at: nil)
        return try decode(HistoryResponse.self, from: json, at: nil)
    }

    // MARK: Steps

    private static func parse(_ token: some StringProtocol, at path: String?) throws(NotificationDecodingError) -> JWS {
        try parse(bytes: Array(token.utf8)[...], at: path)
    }

    private static func parse(bytes: ArraySlice<UInt8>, at path: String?) throws(NotificationDecodingError) -> JWS {
        do {
            return try JWS.parse(bytes: bytes)
        } catch {
            throw NotificationDecodingError(error, at: path)
        }
    }

    private static func check(
        _ json: Data,
        at path: String?,
        locating fields: [JSONScanner.Field] = []
    ) throws(NotificationDecodingError) -> [Range<Int>?] {
        do {
            return try JSONScanner.check(json, locating: fields)
        } catch {
            throw NotificationDecodingError(error, at: path)
        }
    }

    /// Checks `json`, locates `fields` and records its members for ``ShallowDecoder``.
    private static func scan(
        _ json: Data,
        at path: String?,
        locating fields: [JSONScanner.Field] = []
    ) throws(NotificationDecodingError) -> (located: [Range<Int>?], members: [JSONScanner.Member]) {
        do {
            return try JSONScanner.scan(json, locating: fields, recordingMembers: true)
        } catch {
            throw NotificationDecodingError(error, at: path)
        }
    }

    /// Decodes checked JSON as `decoding` says.
    private static func decode<Value: ScannedDecodable>(
        _ type: Value.Type,
        from json: Data,
        _ members: [JSONScanner.Member],
        at path: String?,
        _ decoding: Decoding
    ) throws(NotificationDecodingError) -> Value {
        if decoding != .foundation {
            let shallow = json.withUnsafeBytes { bytes in
                try? ShallowDecoder.decode(type, bytes: bytes, members: members)
            }
            if let shallow { return shallow }
            if decoding == .shallowOnly {
                throw NotificationDecodingError(
                    reason: .badJSON, codingPath: path,
                    detail: "\(path ?? "the payload"): not decodable without JSONDecoder"
                )
            }
        }
        return try decode(type, from: json, at: path)
    }

    private static func decode<Value: Decodable>(
        _ type: Value.Type,
        from json: Data,
        at path: String?
    ) throws(NotificationDecodingError) -> Value {
        do {
            return try sharedDecoder.decode(type, from: json)
        } catch let error as DecodingError {
            throw NotificationDecodingError(error, json: json, at: path)
        } catch {
            throw NotificationDecodingError(
                reason: .badJSON,
                codingPath: path,
                detail: "\(path ?? "the payload"): the JSON could not be decoded"
            )
        }
    }

    private static func requireNotificationFields(
        _ payload: ResponseBodyV2DecodedPayload
    ) throws(NotificationDecodingError) {
        if payload.notificationUUID?.isEmpty ?? true {
            throw .missingField("notificationUUID", "it identifies the notification across retries")
        }
        if payload.notificationType == nil {
            throw .missingField("notificationType", "every notification names its event")
        }
        if payload.signedDate == nil {
            throw .missingField("signedDate", "it orders the notification among the others")
        }
    }
}
