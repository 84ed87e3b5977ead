import AppStoreNotifications
import Foundation
import Testing

/// The storage document: the outer payload with the nested tokens' decoded JSON spliced in place, its objects'
/// members in `jsonb`'s order.
@Suite struct DocumentTests {
    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func splicesDecodedTransactionAndRenewalInfo() throws {
        let decoded = try NotificationDecoder.decodeSignedPayload(
            Fixture.token("billing-lifecycle/01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws")
        )
        let document = try object(decoded.document)
        #expect(document["notificationUUID"] as? String == "093f9e0a-308c-5edd-83aa-70179d290f4a")
        #expect(document["notificationType"] as? String == "DID_FAIL_TO_RENEW")
        let data = try #require(document["data"] as? [String: Any])
        #expect((data["status"] as? NSNumber)?.intValue == 4)
        let transaction = try #require(data["signedTransactionInfo"] as? [String: Any])
        #expect((transaction["price"] as? NSNumber)?.int64Value == 9990)
        #expect(transaction["transactionId"] as? String == "1000000000000001")
        #expect((transaction["expiresDate"] as? NSNumber)?.int64Value == 1_711_843_200_000)
        let renewal = try #require(data["signedRenewalInfo"] as? [String: Any])
        #expect((renewal["gracePeriodExpiresDate"] as? NSNumber)?.int64Value == 1_713_225_600_000)
        #expect((renewal["isInBillingRetryPeriod"] as? NSNumber)?.boolValue == true)
    }

    @Test func documentHoldsTheNestedPayloadsMembersVerbatim() throws {
        let decoded = try NotificationDecoder.decodeSignedPayload(
            Fixture.token("billing-lifecycle/03_DID_RENEW_BILLING_RECOVERY.jws")
        )
        let data = try #require(try object(decoded.document)["data"] as? [String: Any])
        let transaction = try object(try #require(decoded.transactionJWS?.payload))
        let renewal = try object(try #require(decoded.renewalInfoJWS?.payload))
        #expect(data["signedTransactionInfo"] as? NSDictionary == transaction as NSDictionary)
        #expect(data["signedRenewalInfo"] as? NSDictionary == renewal as NSDictionary)
        #expect(decoded.document.range(of: Data("eyJ".utf8)) == nil)
        // Each member's text is copied as it was: `"price":9990` stays, only its place changes.
        let text = String(decoding: decoded.document, as: UTF8.self)
        let transactionText = String(decoding: try #require(decoded.transactionJWS?.payload), as: UTF8.self)
        for member in ["\"price\":", "\"transactionId\":", "\"expiresDate\":"] {
            let start = try #require(transactionText.range(of: member))
            let rest = transactionText[start.upperBound...]
            let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
            #expect(text.contains(transactionText[start.lowerBound..<end]))
        }
    }

    /// Every object the scanner records (the payloads' top level and the objects directly inside it) lists its keys
    /// as PostgreSQL's `jsonb` keeps them: shorter keys first, keys of one length by their bytes. White space between
    /// members goes; white space inside a value the document copies whole stays.
    @Test func membersComeInTheOrderJsonbKeeps() throws {
        let outer = """
            {"signedDate": 1700000000000, "notificationUUID":"u-6",  "notificationType" : "DID_RENEW",
             "zz": {"b": 1, "a": [ 2, {"y": 1, "x": 2} ], "aa": {"d": 4, "c": 3}},
             "data": {"signedTransactionInfo": "\(TestToken.make(TestToken.transaction))", "bundleId": "com.example"}}
            """
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(outer))
        let text = String(decoding: decoded.document, as: UTF8.self)
        #expect(text.hasPrefix(#"{"zz":{"a":[ 2, {"y": 1, "x": 2} ],"b":1,"aa":{"d": 4, "c": 3}},"data":{"bundleId":"#))
        let tail = #"}},"signedDate":1700000000000,"notificationType":"DID_RENEW","notificationUUID":"u-6"}"#
        #expect(text.hasSuffix(tail))
        let data = try #require(try object(decoded.document)["data"] as? [String: Any])
        #expect(data["signedTransactionInfo"] is [String: Any])
        #expect(try object(decoded.document).count == 5)
    }

    /// Keys of one length with the same first and last eight bytes are two keys, not a duplicate.
    @Test func keysThatDifferOnlyInTheMiddleAreBothKept() throws {
        let outer = """
            {"notificationType":"DID_RENEW","notificationUUID":"u-7","signedDate":1700000000000,\
            "abcdefgh-1-abcdefgh":1,"abcdefgh-2-abcdefgh":2,"abc":3,"abd":4}
            """
        let document = try object(try NotificationDecoder.decodeSignedPayload(TestToken.make(outer)).document)
        #expect((document["abcdefgh-1-abcdefgh"] as? NSNumber)?.intValue == 1)
        #expect((document["abcdefgh-2-abcdefgh"] as? NSNumber)?.intValue == 2)
        #expect((document["abc"] as? NSNumber)?.intValue == 3)
        #expect((document["abd"] as? NSNumber)?.intValue == 4)
    }

    @Test func keepsFieldsTheModelsDoNotKnow() throws {
        let transaction = try String(
            decoding: Fixture.data("apple-models/swift__signedTransaction.json"),
            as: UTF8.self
        )
        let outer = """
            {
              "notificationType": "DID_RENEW", "notificationUUID": "u-2", "signedDate": 1700000000000,
              "futureField": {"nested": [1, 2.5, {"x": null}], "text": "caf\\u00e9 ☕"},
              "data": {"bundleId": "com.example", "signedTransactionInfo": "\(TestToken.make(transaction))"}
            }
            """
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(outer))
        let document = try object(decoded.document)
        let future = try #require(document["futureField"] as? [String: Any])
        #expect(future["text"] as? String == "café ☕")
        let data = try #require(document["data"] as? [String: Any])
        let spliced = try #require(data["signedTransactionInfo"] as? [String: Any])
        let commerce = try #require(spliced["advancedCommerceInfo"] as? [String: Any])
        #expect((commerce["estimatedTax"] as? NSNumber)?.intValue == 1500)
        #expect(spliced["billingPlanType"] as? String == "MONTHLY")
        #expect((spliced["price"] as? NSNumber)?.intValue == 10990)
    }

    @Test func splicesAppTransactionAndKeepsFractionalNumbersVerbatim() throws {
        let appToken = try Fixture.token("xcode/xcode-signed-app-transaction")
        let outer = """
            {"notificationType":"RESCIND_CONSENT","notificationUUID":"u-3","signedDate":1700000000000,\
            "appData":{"bundleId":"com.example","signedAppTransactionInfo":"\(appToken)"}}
            """
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(outer))
        #expect(decoded.appTransaction?.originalPurchaseDate == -62_135_769_600_000)
        #expect(decoded.appTransactionJWS?.header.kid == "Apple_Xcode_Key")
        let text = String(decoding: decoded.document, as: UTF8.self)
        #expect(text.contains(#""receiptCreationDate":1697680122257.447"#))
        let appData = try #require(try object(decoded.document)["appData"] as? [String: Any])
        let app = try #require(appData["signedAppTransactionInfo"] as? [String: Any])
        #expect(app["receiptType"] as? String == "Xcode")
    }

    @Test func findsTokensBehindEscapedKeysAndWhiteSpace() throws {
        let outer = """
            {"notificationType":"DID_RENEW","notificationUUID":"u-4","signedDate":1700000000000,
             "d\\u0061ta" : {
                "signedRenewalInfo"  :  "\(TestToken.make(TestToken.renewalInfo))" ,
                "signedTransaction\\u0049nfo":"\(TestToken.make(TestToken.transaction))"
             }
            }
            """
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(outer))
        #expect(decoded.transaction?.price == 9990)
        #expect(decoded.renewalInfo?.renewalDate == 1_700_000_000_000)
        let data = try #require(try object(decoded.document)["data"] as? [String: Any])
        #expect(data["signedTransactionInfo"] is [String: Any])
        #expect(data["signedRenewalInfo"] is [String: Any])
    }

    @Test func leavesOtherStringsThatLookLikeTheTokenAlone() throws {
        let token = TestToken.make(TestToken.transaction)
        let outer = """
            {"notificationType":"DID_RENEW","notificationUUID":"u-5","signedDate":1700000000000,\
            "copy":"\(token)","data":{"signedTransactionInfo":"\(token)"}}
            """
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(outer))
        let document = try object(decoded.document)
        #expect(document["copy"] as? String == token)
        let data = try #require(document["data"] as? [String: Any])
        #expect(data["signedTransactionInfo"] is [String: Any])
    }

    @Test func documentWithoutNestedTokensHoldsThePayload() throws {
        let json = try Fixture.data("apple-models/signedSummaryNotification.json")
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(json))
        #expect(try object(decoded.document) as NSDictionary == (try object(json)) as NSDictionary)
        #expect(decoded.payload.summary?.succeededCount == 5)
    }
}
