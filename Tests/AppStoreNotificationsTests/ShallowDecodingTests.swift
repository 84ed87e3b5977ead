import AppStoreNotifications
import Foundation
import Testing

/// The decoder that works from the strict scanner's members must give exactly what `JSONDecoder` gives, and must be
/// the one used for Apple's usual payloads.
@Suite struct ShallowDecodingTests {
    /// Apple's payloads, their signed samples and Xcode's, wrapped as notifications where they are not one.
    static func appleShapedTokens() throws -> [(name: String, token: String)] {
        var tokens: [(String, String)] = []
        for name in [
            "01_DID_FAIL_TO_RENEW_GRACE_PERIOD", "02_GRACE_PERIOD_EXPIRED", "03_DID_RENEW_BILLING_RECOVERY",
            "04_DID_FAIL_TO_RENEW", "05_EXPIRED_BILLING_RETRY",
        ] {
            tokens.append((name, try Fixture.token("billing-lifecycle/\(name).jws")))
        }
        tokens.append(("testNotification", try Fixture.token("apple-mock-signed/testNotification")))
        for name in [
            "signedNotification", "signedSummaryNotification", "signedExternalPurchaseTokenNotification",
            "signedExternalPurchaseTokenSandboxNotification", "python-swift__signedConsumptionRequestNotification",
            "signedRescindConsentNotification",
        ] {
            tokens.append((name, TestToken.make(try Fixture.data("apple-models/\(name).json"))))
        }
        for name in [
            "swift__signedTransaction", "java-node-python__signedTransaction", "signedTransactionWithRevocation",
        ] {
            let transaction = TestToken.make(try Fixture.data("apple-models/\(name).json"))
            tokens.append((name, TestToken.make(TestToken.notification(transaction: transaction))))
        }
        tokens.append(
            (
                "xcode",
                TestToken.make(
                    TestToken.notification(
                        transaction: try Fixture.token("xcode/xcode-signed-transaction"),
                        renewalInfo: try Fixture.token("xcode/xcode-signed-renewal-info")
                    )
                )
            )
        )
        return tokens
    }

    /// Samples with a shape left to JSONDecoder: an array (`storefrontCountryCodes`), and Xcode's fractional
    /// milliseconds.
    static let needJSONDecoder: Set = ["signedSummaryNotification", "xcode"]

    @Test func applePayloadsDecodeShallowlyToWhatJSONDecoderGives() throws {
        var decoded: [String] = []
        for (name, token) in try Self.appleShapedTokens() {
            guard let expected = try? NotificationDecoder.decodeSignedPayload(token, decoding: .foundation) else {
                // Apple's model samples hold placeholders where the nested tokens go.
                #expect(throws: NotificationDecodingError.self) { try NotificationDecoder.decodeSignedPayload(token) }
                continue
            }
            let shallow = try NotificationDecoder.decodeSignedPayload(token)
            #expect(Self.same(shallow, expected), "\(name)")
            let shallowOnly = try? NotificationDecoder.decodeSignedPayload(token, decoding: .shallowOnly)
            #expect((shallowOnly == nil) == Self.needJSONDecoder.contains(name), "\(name)")
            decoded.append(name)
        }
        #expect(decoded.count == 13)
    }

    /// A notification whose transaction and renewal info hold the given members, beside a few usual ones.
    static func notification(top: String = "", data: String = "", transaction: String = "", renewal: String = "")
        -> String
    {
        let transactionToken = TestToken.make(#"{"transactionId":"7","originalTransactionId":"5"\#(transaction)}"#)
        let renewalToken = TestToken.make(#"{"originalTransactionId":"5","autoRenewStatus":1\#(renewal)}"#)
        return TestToken.make(
            #"{"notificationType":"DID_RENEW","notificationUUID":"00000000-0000-4000-8000-000000000001","#
                + #""signedDate":1700000000000\#(top),"data":{"bundleId":"com.example","status":1\#(data),"#
                + #""signedTransactionInfo":"\#(transactionToken)","signedRenewalInfo":"\#(renewalToken)"}}"#
        )
    }

    /// Shapes the shallow decoder leaves to JSONDecoder, values it must read the same way, and wrong types whose
    /// errors must not change.
    static let edgeCases: [(name: String, token: String)] = [
        (
            "escaped slash",
            notification(data: #","bundleId2":"a\/b""#, transaction: #","productId":"com.example\/monthly""#)
        ),
        ("unicode escape", notification(transaction: #","productId":"caf\u00e9""#)),
        ("raw UTF-8", notification(transaction: #","productId":"café ☕︎","storefront":"日本""#)),
        ("fractional date", notification(transaction: #","expiresDate":1700000000000.75"#)),
        ("exponent date", notification(transaction: #","expiresDate":1.7e12"#)),
        (
            "nulls",
            notification(top: #","subtype":null,"version":null"#, transaction: #","price":null,"expiresDate":null"#)
        ),
        (
            "unknown enums",
            notification(top: #","subtype":"FUTURE_SUBTYPE""#, transaction: #","offerType":9,"type":"New""#)
        ),
        ("negative numbers", notification(transaction: #","price":-5,"quantity":-1"#)),
        ("zero", notification(transaction: #","price":0,"revocationReason":0"#)),
        (
            "Int64 extremes",
            notification(transaction: #","price":9223372036854775807,"purchaseDate":-9223372036854775807"#)
        ),
        ("Int64 overflow", notification(transaction: #","price":9223372036854775808"#)),
        ("Int32 overflow", notification(transaction: #","quantity":3000000000"#)),
        ("price as text", notification(transaction: #","price":"9990""#)),
        ("date as text", notification(top: #","version":"2.0""#, transaction: #","expiresDate":"soon""#)),
        ("bool as number", notification(transaction: #","isUpgraded":1"#)),
        ("bool", notification(transaction: #","isUpgraded":true"#, renewal: #","isInBillingRetryPeriod":false"#)),
        ("array", notification(renewal: #","eligibleWinBackOfferIds":["a","b"]"#)),
        ("empty array", notification(renewal: #","eligibleWinBackOfferIds":[]"#)),
        ("array of the wrong type", notification(renewal: #","eligibleWinBackOfferIds":[1]"#)),
        ("escaped key", notification(transaction: #","\u0070rice":1"#)),
        ("unknown members", notification(top: #","later":{"x":[1,{"y":2}]}"#, data: #","extra":{"z":null}"#)),
        ("string as enum number", notification(transaction: #","offerType":"1""#)),
        ("number as enum string", notification(top: #","subtype":5"#)),
        ("object where a string goes", notification(transaction: #","currency":{"code":"USD"}"#)),
        ("empty key", notification(transaction: #","":1"#)),
        (
            "data is null",
            TestToken.make(#"{"notificationType":"TEST","notificationUUID":"u","signedDate":1,"data":null}"#)
        ),
        (
            "data is text",
            TestToken.make(#"{"notificationType":"TEST","notificationUUID":"u","signedDate":1,"data":"x"}"#)
        ),
        (
            "summary",
            TestToken.make(
                #"{"notificationType":"RENEWAL_EXTENSION","notificationUUID":"u","signedDate":1,"summary":{"requestIdentifier":"r","storefrontCountryCodes":["USA"],"succeededCount":3}}"#
            )
        ),
        ("no signedDate", TestToken.make(#"{"notificationType":"TEST","notificationUUID":"u"}"#)),
        ("top-level array", TestToken.make(#"[1,2]"#)),
    ]

    @Test(arguments: edgeCases.map(\.name))
    func edgeCasesDecodeAsJSONDecoderDecodesThem(name: String) throws {
        let token = try #require(Self.edgeCases.first { $0.name == name }?.token)
        let expected = Result { () throws(NotificationDecodingError) in
            try NotificationDecoder.decodeSignedPayload(token, decoding: .foundation)
        }
        let shallow = Result { () throws(NotificationDecodingError) in
            try NotificationDecoder.decodeSignedPayload(token, decoding: .shallowWhenPossible)
        }
        switch (shallow, expected) {
        case (.success(let shallow), .success(let expected)):
            #expect(Self.same(shallow, expected))
        case (.failure(let shallow), .failure(let expected)):
            #expect(shallow.reason == expected.reason)
            #expect(shallow.detail == expected.detail)
        default:
            Issue.record("shallow: \(shallow), JSONDecoder: \(expected)")
        }
    }

    @Test func plainValuesNeedNoJSONDecoder() throws {
        let token = Self.notification(
            top: #","subtype":null"#,
            transaction: #","price":-5,"isUpgraded":true,"offerType":9,"expiresDate":1700000000000"#
        )
        let decoded = try NotificationDecoder.decodeSignedPayload(token, decoding: .shallowOnly)
        #expect(decoded.transaction?.price == -5)
        #expect(decoded.transaction?.isUpgraded == true)
        #expect(decoded.transaction?.offerType?.rawValue == 9)
        #expect(decoded.transaction?.expiresDate == 1_700_000_000_000)
        #expect(decoded.renewalInfo?.autoRenewStatus?.rawValue == 1)
        // An escape is left to JSONDecoder.
        #expect(throws: NotificationDecodingError.self) {
            try NotificationDecoder.decodeSignedPayload(
                Self.notification(transaction: #","productId":"a\/b""#), decoding: .shallowOnly
            )
        }
    }

    /// Keys are found by their length and first seven bytes, then compared whole: a key that shares both with a
    /// model's key, and comes before it, is not taken for it.
    @Test func keysAlikeInLengthAndFirstBytesAreToldApart() throws {
        let token = Self.notification(
            data: #","bundleIe":"wrong""#,
            transaction: #","productIf":"wrong","productId":"monthly","typf":"wrong","type":"Consumable""#
        )
        let decoded = try NotificationDecoder.decodeSignedPayload(token, decoding: .shallowOnly)
        #expect(decoded.transaction?.productId == "monthly")
        #expect(decoded.transaction?.type?.rawValue == "Consumable")
        #expect(decoded.payload.data?.bundleId == "com.example")
        let expected = try NotificationDecoder.decodeSignedPayload(token, decoding: .foundation)
        #expect(Self.same(decoded, expected))
    }

    static func same(_ lhs: DecodedNotification, _ rhs: DecodedNotification) -> Bool {
        lhs.payload == rhs.payload && lhs.transaction == rhs.transaction && lhs.renewalInfo == rhs.renewalInfo
            && lhs.appTransaction == rhs.appTransaction && lhs.document == rhs.document
    }
}
