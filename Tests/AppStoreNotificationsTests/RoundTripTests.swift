import AppStoreNotifications
import Foundation
import Testing

/// Decode, encode, decode again: the values are equal and unknown enum values survive verbatim.
@Suite struct RoundTripTests {
    private func roundTrip<Value: Codable & Equatable>(_ value: Value) throws -> Value {
        let json = try NotificationDecoder.makeJSONEncoder().encode(value)
        return try NotificationDecoder.makeJSONDecoder().decode(Value.self, from: json)
    }

    @Test(arguments: [
        "signedNotification.json", "signedSummaryNotification.json",
        "python-swift__signedConsumptionRequestNotification.json", "signedExternalPurchaseTokenNotification.json",
        "signedExternalPurchaseTokenSandboxNotification.json", "signedRescindConsentNotification.json",
    ])
    func notificationsRoundTrip(file: String) throws {
        let payload = try NotificationDecoder.decodeNotification(from: Fixture.data("apple-models/\(file)"))
        #expect(try roundTrip(payload) == payload)
    }

    @Test(arguments: [
        "swift__signedTransaction.json", "java-node-python__signedTransaction.json",
        "signedTransactionWithRevocation.json",
    ])
    func transactionsRoundTrip(file: String) throws {
        let transaction = try NotificationDecoder.decodeTransaction(from: Fixture.data("apple-models/\(file)"))
        #expect(try roundTrip(transaction) == transaction)
    }

    @Test func otherModelsRoundTrip() throws {
        let renewal = try NotificationDecoder.decodeRenewalInfo(
            from: Fixture.data("apple-models/signedRenewalInfo.json")
        )
        #expect(try roundTrip(renewal) == renewal)
        let page = try NotificationDecoder.decodeHistoryPage(
            from: Fixture.data("apple-models/getNotificationHistoryResponse.json")
        )
        #expect(try roundTrip(page) == page)
        let statuses = try NotificationDecoder.decodeStatusResponse(
            from: Fixture.data("apple-models/getAllSubscriptionStatusesResponse.json")
        )
        #expect(try roundTrip(statuses) == statuses)
        let app = try NotificationDecoder.decodeSignedAppTransaction(
            Fixture.token("xcode/xcode-signed-app-transaction")
        )
        #expect(try roundTrip(app) == app)
    }

    @Test(arguments: SignedPayloadTests.lifecycle.map(\.file))
    func signedNotificationsRoundTrip(file: String) throws {
        let decoded = try NotificationDecoder.decodeSignedPayload(Fixture.token("billing-lifecycle/\(file)"))
        #expect(try roundTrip(decoded.payload) == decoded.payload)
        let transaction = try #require(decoded.transaction)
        #expect(try roundTrip(transaction) == transaction)
        let renewal = try #require(decoded.renewalInfo)
        #expect(try roundTrip(renewal) == renewal)
    }

    @Test func unknownNotificationValuesSurvive() throws {
        let json = """
            {"notificationType":"SOMETHING_NEW","subtype":"ALSO_NEW","notificationUUID":"u-6","signedDate":1,\
            "data":{"environment":"Staging","status":42,"consumptionRequestReason":"CHANGED_MIND"}}
            """
        let payload = try NotificationDecoder.decodeNotification(from: Data(json.utf8))
        #expect(payload.notificationType == .unknown("SOMETHING_NEW"))
        #expect(payload.subtype == .unknown("ALSO_NEW"))
        #expect(payload.data?.environment == .unknown("Staging"))
        #expect(payload.data?.status == .unknown(42))
        #expect(payload.data?.consumptionRequestReason == .unknown("CHANGED_MIND"))

        let encoded = String(decoding: try NotificationDecoder.makeJSONEncoder().encode(payload), as: UTF8.self)
        #expect(encoded.contains(#""notificationType":"SOMETHING_NEW""#))
        #expect(encoded.contains(#""subtype":"ALSO_NEW""#))
        #expect(encoded.contains(#""status":42"#))
        #expect(encoded.contains(#""environment":"Staging""#))
        #expect(try roundTrip(payload) == payload)
    }

    @Test func unknownTransactionAndRenewalValuesSurvive() throws {
        let transactionJSON = """
            {"type":"Subscription Bundle","offerType":9,"revocationReason":7,"revocationType":"REFUND_PARTIAL",\
            "inAppOwnershipType":"GIFTED","transactionReason":"TRANSFER","offerDiscountType":"BOGO"}
            """
        let transaction = try NotificationDecoder.decodeTransaction(from: Data(transactionJSON.utf8))
        #expect(transaction.type == .unknown("Subscription Bundle"))
        #expect(transaction.offerType == .unknown(9))
        #expect(transaction.revocationReason == .unknown(7))
        #expect(transaction.revocationType == .unknown("REFUND_PARTIAL"))
        #expect(transaction.inAppOwnershipType == .unknown("GIFTED"))
        #expect(transaction.transactionReason == .unknown("TRANSFER"))
        #expect(transaction.offerDiscountType == .unknown("BOGO"))
        #expect(try roundTrip(transaction) == transaction)

        let renewalJSON = #"{"expirationIntent":6,"autoRenewStatus":2,"priceIncreaseStatus":3}"#
        let renewal = try NotificationDecoder.decodeRenewalInfo(from: Data(renewalJSON.utf8))
        #expect(renewal.expirationIntent == .unknown(6))
        #expect(renewal.autoRenewStatus == .unknown(2))
        #expect(renewal.priceIncreaseStatus == .unknown(3))
        let encoded = String(decoding: try NotificationDecoder.makeJSONEncoder().encode(renewal), as: UTF8.self)
        #expect(encoded == #"{"autoRenewStatus":2,"expirationIntent":6,"priceIncreaseStatus":3}"#)
    }

    @Test func builtValuesEncodeAsApplesJSON() throws {
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = "1000000000000001"
        renewal.expirationIntent = .known(.billingError)
        renewal.isInBillingRetryPeriod = true
        renewal.gracePeriodExpiresDate = 1_713_225_600_000
        let encoded = String(decoding: try NotificationDecoder.makeJSONEncoder().encode(renewal), as: UTF8.self)
        #expect(
            encoded == #"{"expirationIntent":2,"gracePeriodExpiresDate":1713225600000,"isInBillingRetryPeriod":true,"#
                + #""originalTransactionId":"1000000000000001"}"#
        )
    }
}
