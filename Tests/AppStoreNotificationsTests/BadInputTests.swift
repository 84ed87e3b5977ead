import AppStoreNotifications
import Foundation
import Testing

/// Every kind of bad input fails with a reason code, the failing field's path and a readable sentence.
@Suite struct BadInputTests {
    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var token: String
        var reason: NotificationDecodingError.Reason
        var path: String?

        var testDescription: String { name }

        init(_ name: String, _ token: String, _ reason: NotificationDecodingError.Reason, _ path: String? = nil) {
            self.name = name
            self.token = token
            self.reason = reason
            self.path = path
        }
    }

    private static let header = Base64URL.encode(Data(TestToken.header.utf8))
    private static let payload = Base64URL.encode(Data(TestToken.notification().utf8))

    /// A token whose payload is `json`.
    private static func token(_ json: String) -> String {
        TestToken.make(json)
    }

    /// A token whose payload is a TEST notification with the given members added.
    private static func top(_ members: String) -> String {
        TestToken.make(#"{"notificationType":"TEST","notificationUUID":"u",\#(members)}"#)
    }

    /// A token whose payload is a notification with the given `data` members.
    private static func withData(_ members: String) -> String {
        TestToken.make(
            #"{"notificationType":"DID_RENEW","notificationUUID":"u","signedDate":1,"data":{\#(members)}}"#
        )
    }

    /// A token whose payload is a notification whose nested transaction has the given payload.
    private static func withTransaction(_ json: String) -> String {
        TestToken.make(TestToken.notification(transaction: TestToken.make(json)))
    }

    /// A token whose payload is a notification whose nested renewal info has the given payload.
    private static func withRenewal(_ json: String) -> String {
        TestToken.make(TestToken.notification(renewalInfo: TestToken.make(json)))
    }

    static let cases: [BadInput] = [
        BadInput("empty", "", .notJWS),
        BadInput("two segments", "\(header).\(payload)", .notJWS),
        BadInput("four segments", "\(header).\(payload).c2ln.c2ln", .notJWS),
        BadInput("bad base64 in header", "%%%.\(payload).c2ln", .badBase64),
        BadInput("bad base64 in payload", "\(header).pay*load.c2ln", .badBase64),
        BadInput("bad base64 in signature", "\(header).\(payload).sig!", .badBase64),
        BadInput("impossible base64 length", "\(header).\(payload)A.c2ln", .badBase64),
        BadInput("header not JSON", "bm9wZQ.\(payload).c2ln", .badHeader),
        BadInput("surrounding white space", " \(header).\(payload).c2ln\n", .badBase64),
        BadInput("payload not JSON", token("not json"), .badJSON),
        BadInput("payload empty", token(""), .badJSON),
        BadInput("payload JSON array", token("[1,2]"), .wrongType),
        BadInput("payload trailing comma", token(#"{"notificationType":"TEST",}"#), .badJSON),
        BadInput("payload leading zero", token(#"{"signedDate":01}"#), .badJSON),
        BadInput("payload with text after it", token(#"{"a":1} {"b":2}"#), .badJSON),
        BadInput("payload with NUL escape", token(#"{"version":"a\u0000b"}"#), .badJSON),
        BadInput("payload with unpaired surrogate", token(#"{"version":"\ud800"}"#), .badJSON),
        // A high surrogate followed by text that only looks like an escape ("dudddd", no backslash).
        BadInput("payload with surrogate and no escape after it", token(#"{"version":"\udAdddudddd"}"#), .badJSON),
        BadInput("payload key with surrogate and no escape after it", token(#"{"a\ud800xudc00":1}"#), .badJSON),
        BadInput("payload with raw control character", token("{\"version\":\"a\tb\"}"), .badJSON),
        BadInput("payload duplicate key", token(#"{"version":"2.0","version":"3.0"}"#), .badJSON),
        BadInput("payload duplicate escaped key", token(#"{"data":{},"d\u0061ta":{}}"#), .badJSON),
        BadInput(
            "payload duplicate long key among others",
            top(#""signedDate":1,"originalTransactionId":"1","originalPurchaseDate":2,"originalTransactionId":"2""#),
            .badJSON
        ),
        BadInput(
            "payload duplicate long key, one escaped",
            top(#""signedDate":1,"notificationUUIDx":"1","notificationUUID\u0078":"2""#),
            .badJSON
        ),
        BadInput("payload byte-order mark", TestToken.make(Data([0xEF, 0xBB, 0xBF]) + Data("{}".utf8)), .badJSON),
        BadInput("payload invalid UTF-8", TestToken.make(Data([0x7B, 0x22, 0xC0, 0xAF, 0x22, 0x7D])), .badJSON),
        BadInput("payload nested too deep", token(String(repeating: "[", count: 200)), .badJSON),
        BadInput("payload number beyond numeric", top(#""signedDate":1,"x":961e8148950000"#), .badJSON),
        BadInput("payload number with too many decimals", top(#""signedDate":1,"x":1.25e-16382"#), .badJSON),
        BadInput("signedDate as string", top(#""signedDate":"1""#), .wrongType, "signedDate"),
        BadInput("signedDate as boolean", top(#""signedDate":true"#), .wrongType, "signedDate"),
        BadInput("signedDate too large", top(#""signedDate":1e300"#), .badValue, "signedDate"),
        BadInput("data as string", top(#""signedDate":1,"data":"x""#), .wrongType, "data"),
        BadInput("status too large", withData(#""status":99999999999"#), .badValue, "data.status"),
        BadInput("status fractional", withData(#""status":1.5"#), .badValue, "data.status"),
        BadInput("appAppleId as string", withData(#""appAppleId":"1234""#), .wrongType, "data.appAppleId"),
        BadInput(
            "missing notificationUUID",
            token(#"{"notificationType":"TEST","signedDate":1}"#),
            .missingField,
            "notificationUUID"
        ),
        BadInput(
            "empty notificationUUID",
            token(#"{"notificationType":"TEST","notificationUUID":"","signedDate":1}"#),
            .missingField,
            "notificationUUID"
        ),
        BadInput(
            "missing notificationType",
            token(#"{"notificationUUID":"u","signedDate":1}"#),
            .missingField,
            "notificationType"
        ),
        BadInput("missing signedDate", top(#""version":"2.0""#), .missingField, "signedDate"),
        BadInput(
            "summary country code not a string",
            top(#""signedDate":1,"summary":{"storefrontCountryCodes":["A",1]}"#),
            .wrongType,
            "summary.storefrontCountryCodes[1]"
        ),
        BadInput(
            "nested token garbage",
            withData(#""signedTransactionInfo":"signed_transaction_info_value""#),
            .notJWS,
            "data.signedTransactionInfo"
        ),
        BadInput("nested token empty", withData(#""signedRenewalInfo":"""#), .notJWS, "data.signedRenewalInfo"),
        BadInput(
            "nested token not a string",
            withData(#""signedTransactionInfo":5"#),
            .wrongType,
            "data.signedTransactionInfo"
        ),
        BadInput(
            "nested token bad base64",
            withData(#""signedRenewalInfo":"e30.%%%.c2ln""#),
            .badBase64,
            "data.signedRenewalInfo"
        ),
        BadInput(
            "nested header not JSON",
            withData(#""signedRenewalInfo":"bm9wZQ.e30.c2ln""#),
            .badHeader,
            "data.signedRenewalInfo"
        ),
        BadInput("nested payload not JSON", withTransaction("price: 9.99"), .badJSON, "data.signedTransactionInfo"),
        BadInput("nested payload JSON array", withTransaction("[]"), .wrongType, "data.signedTransactionInfo"),
        BadInput(
            "nested payload trailing comma",
            withTransaction(#"{"price":1,}"#),
            .badJSON,
            "data.signedTransactionInfo"
        ),
        BadInput(
            "nested price as string",
            withTransaction(#"{"price":"9.99"}"#),
            .wrongType,
            "data.signedTransactionInfo.price"
        ),
        BadInput(
            "nested price fractional",
            withTransaction(#"{"price":9.99}"#),
            .badValue,
            "data.signedTransactionInfo.price"
        ),
        BadInput(
            "nested quantity too large",
            withTransaction(#"{"quantity":4294967296}"#),
            .badValue,
            "data.signedTransactionInfo.quantity"
        ),
        BadInput(
            "nested type as number",
            withTransaction(#"{"type":1}"#),
            .wrongType,
            "data.signedTransactionInfo.type"
        ),
        BadInput(
            "nested offerType as string",
            withTransaction(#"{"offerType":"1"}"#),
            .wrongType,
            "data.signedTransactionInfo.offerType"
        ),
        BadInput(
            "nested isUpgraded as number",
            withTransaction(#"{"isUpgraded":1}"#),
            .wrongType,
            "data.signedTransactionInfo.isUpgraded"
        ),
        BadInput(
            "nested renewal date as string",
            withRenewal(#"{"renewalDate":"soon"}"#),
            .wrongType,
            "data.signedRenewalInfo.renewalDate"
        ),
        BadInput(
            "nested win-back ids not strings",
            withRenewal(#"{"eligibleWinBackOfferIds":["a",null]}"#),
            .wrongType,
            "data.signedRenewalInfo.eligibleWinBackOfferIds[1]"
        ),
        BadInput(
            "nested app transaction garbage",
            top(#""signedDate":1,"appData":{"signedAppTransactionInfo":"x"}"#),
            .notJWS,
            "appData.signedAppTransactionInfo"
        ),
    ]

    @Test(arguments: cases)
    func failsWithReasonAndPath(input: BadInput) throws {
        let error = #expect(throws: NotificationDecodingError.self) {
            try NotificationDecoder.decodeSignedPayload(input.token)
        }
        #expect(error?.reason == input.reason)
        #expect(error?.codingPath == input.path)
        let detail = try #require(error?.detail)
        if let path = input.path {
            #expect(detail.hasPrefix("\(path): ") || detail.hasPrefix("\(path) is missing"))
        }
        for leak in ["DecodingError", "CodingKeys", "Context(", "Swift.", "JSONError"] {
            #expect(!detail.contains(leak))
        }
    }

    @Test func explainsAWrongTypeInPlainWords() throws {
        let error = #expect(throws: NotificationDecodingError.self) {
            try NotificationDecoder.decodeSignedPayload(Self.withTransaction(#"{"price":"9.99"}"#))
        }
        #expect(error?.detail == "data.signedTransactionInfo.price: expected an integer, found a string")
        #expect(
            error?.description == "data.signedTransactionInfo.price: expected an integer, found a string [wrong_type]"
        )
    }

    @Test func explainsOtherFailuresInPlainWords() throws {
        func detail(_ token: String) -> String? {
            #expect(throws: NotificationDecodingError.self) {
                try NotificationDecoder.decodeSignedPayload(token)
            }?.detail
        }
        #expect(detail(Self.token("[1]")) == "the payload: expected an object, found an array")
        #expect(
            detail(Self.top(#""signedDate":"x""#)) == "signedDate: expected a Unix time in milliseconds, found a string"
        )
        #expect(
            detail(Self.withData(#""status":1.5"#))
                == "data.status: the number 1.5 does not fit this field (too large, or not a whole number)"
        )
        #expect(detail(Self.token(#"{"a":1,}"#)) == "invalid JSON at byte 7: expected a quoted key, found '}'")
        #expect(
            detail(Self.token(#"{"notificationType":"TEST","signedDate":1}"#))
                == "notificationUUID is missing: it identifies the notification across retries"
        )
        #expect(
            detail(Self.withData(#""signedTransactionInfo":"garbage""#))
                == "data.signedTransactionInfo: a compact JWS has 3 dot-separated parts, this one has 1"
        )
    }

    @Test func historyPageErrorsCarryArrayIndices() throws {
        let json = #"{"notificationHistory":[{"signedPayload":"a"},{"sendAttempts":[{"attemptDate":"x"}]}]}"#
        let error = #expect(throws: NotificationDecodingError.self) {
            try NotificationDecoder.decodeHistoryPage(from: Data(json.utf8))
        }
        #expect(error?.reason == .wrongType)
        #expect(error?.codingPath == "notificationHistory[1].sendAttempts[0].attemptDate")
    }

    @Test func historyPageWithUnknownResultKeepsIt() throws {
        let json = #"{"notificationHistory":[{"sendAttempts":[{"attemptDate":1,"sendAttemptResult":"DNS_ISSUE"}]}]}"#
        let page = try NotificationDecoder.decodeHistoryPage(from: Data(json.utf8))
        #expect(page.notificationHistory?.first?.sendAttempts?.first?.sendAttemptResult == .unknown("DNS_ISSUE"))
    }

    @Test(arguments: NotificationDecodingError.Reason.allCases)
    func reasonCodesAreShortSnakeCase(reason: NotificationDecodingError.Reason) {
        #expect(reason.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" })
        #expect(reason.rawValue.count <= 16)
    }
}
