import AppStoreNotifications
import Foundation
import Testing

/// The storage document: the outer payload with the nested tokens' decoded JSON spliced in place.
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

    @Test func documentHoldsTheNestedPayloadBytesVerbatim() throws {
        let decoded = try NotificationDecoder.decodeSignedPayload(
            Fixture.token("billing-lifecycle/03_DID_RENEW_BILLING_RECOVERY.jws")
        )
        let transactionJSON = try #require(decoded.transactionJWS?.payload)
        let renewalJSON = try #require(decoded.renewalInfoJWS?.payload)
        #expect(decoded.document.range(of: transactionJSON) != nil)
        #expect(decoded.document.range(of: renewalJSON) != nil)
        #expect(decoded.document.range(of: Data("eyJ".utf8)) == nil)
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

    @Test func documentWithoutNestedTokensIsThePayload() throws {
        let json = try Fixture.data("apple-models/signedSummaryNotification.json")
        let decoded = try NotificationDecoder.decodeSignedPayload(TestToken.make(json))
        #expect(decoded.document == json)
        #expect(decoded.payload.summary?.succeededCount == 5)
    }
}
