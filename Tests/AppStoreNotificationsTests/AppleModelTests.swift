import AppStoreNotifications
import Foundation
import NotificationTypes
import Testing

/// Apple's unsigned model payloads: every documented field decodes to its value.
@Suite struct AppleModelTests {
    @Test func decodesNotification() throws {
        let payload = try NotificationDecoder.decodeNotification(
            from: Fixture.data("apple-models/signedNotification.json")
        )
        #expect(payload.notificationType == .known(.subscribed))
        #expect(payload.subtype == .known(.initialBuy))
        #expect(payload.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(payload.version == "2.0")
        #expect(payload.signedDate == 1_698_148_900_000)
        let data = try #require(payload.data)
        #expect(data.environment == .known(.localTesting))
        #expect(data.appAppleId == 41234)
        #expect(data.bundleId == "com.example")
        #expect(data.bundleVersion == "1.2.3")
        #expect(data.signedTransactionInfo == "signed_transaction_info_value")
        #expect(data.signedRenewalInfo == "signed_renewal_info_value")
        #expect(data.status == .known(.active))
        #expect(data.consumptionRequestReason == nil)
        #expect(payload.summary == nil)
        #expect(payload.externalPurchaseToken == nil)
        #expect(payload.appData == nil)
    }

    @Test func decodesSummaryNotification() throws {
        let json = try Fixture.data("apple-models/signedSummaryNotification.json")
        let payload = try NotificationDecoder.decodeNotification(from: json)
        #expect(payload.notificationType == .known(.renewalExtension))
        #expect(payload.subtype == .known(.summary))
        #expect(payload.data == nil)
        let summary = try #require(payload.summary)
        #expect(summary.environment == .known(.localTesting))
        #expect(summary.appAppleId == 41234)
        #expect(summary.bundleId == "com.example")
        #expect(summary.productId == "com.example.product")
        #expect(summary.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
        #expect(summary.storefrontCountryCodes == ["CAN", "USA", "MEX"])
        #expect(summary.succeededCount == 5)
        #expect(summary.failedCount == 2)
    }

    @Test func decodesConsumptionRequestNotification() throws {
        let json = try Fixture.data("apple-models/python-swift__signedConsumptionRequestNotification.json")
        let payload = try NotificationDecoder.decodeNotification(from: json)
        #expect(payload.notificationType == .known(.consumptionRequest))
        #expect(payload.subtype == nil)
        #expect(payload.data?.consumptionRequestReason == .known(.unintendedPurchase))
        #expect(payload.data?.status == .known(.active))
        #expect(payload.signedDate == 1_698_148_900_000)
    }

    @Test(arguments: [
        ("signedExternalPurchaseTokenNotification.json", "b2158121-7af9-49d4-9561-1f588205523e"),
        ("signedExternalPurchaseTokenSandboxNotification.json", "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e"),
    ])
    func decodesExternalPurchaseTokenNotification(file: String, externalPurchaseId: String) throws {
        let payload = try NotificationDecoder.decodeNotification(from: Fixture.data("apple-models/\(file)"))
        #expect(payload.notificationType == .known(.externalPurchaseToken))
        #expect(payload.subtype == .known(.unreported))
        #expect(payload.data == nil)
        let token = try #require(payload.externalPurchaseToken)
        #expect(token.externalPurchaseId == externalPurchaseId)
        #expect(token.tokenCreationDate == 1_698_148_950_000)
        #expect(token.appAppleId == 55555)
        #expect(token.bundleId == "com.example")
        #expect(token.tokenType == nil)
        #expect(token.tokenExpirationDate == nil)
    }

    @Test func decodesRescindConsentNotification() throws {
        let json = try Fixture.data("apple-models/signedRescindConsentNotification.json")
        let payload = try NotificationDecoder.decodeNotification(from: json)
        #expect(payload.notificationType == .known(.rescindConsent))
        #expect(payload.data == nil)
        let appData = try #require(payload.appData)
        #expect(appData.appAppleId == 41234)
        #expect(appData.bundleId == "com.example")
        #expect(appData.environment == .known(.localTesting))
        #expect(appData.signedAppTransactionInfo == "signed_app_transaction_info_value")
    }

    @Test(arguments: ["swift__signedTransaction.json", "java-node-python__signedTransaction.json"])
    func decodesTransaction(file: String) throws {
        let transaction = try NotificationDecoder.decodeTransaction(from: Fixture.data("apple-models/\(file)"))
        #expect(transaction.transactionId == "23456")
        #expect(transaction.originalTransactionId == "12345")
        #expect(transaction.webOrderLineItemId == "34343")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.productId == "com.example.product")
        #expect(transaction.subscriptionGroupIdentifier == "55555")
        #expect(transaction.purchaseDate == 1_698_148_900_000)
        #expect(transaction.originalPurchaseDate == 1_698_148_800_000)
        #expect(transaction.expiresDate == 1_698_149_000_000)
        #expect(transaction.quantity == 1)
        #expect(transaction.type == .known(.autoRenewableSubscription))
        #expect(transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.inAppOwnershipType == .known(.purchased))
        #expect(transaction.signedDate == 1_698_148_900_000)
        #expect(transaction.revocationReason == .known(.refundedDueToIssue))
        #expect(transaction.revocationDate == 1_698_148_950_000)
        #expect(transaction.isUpgraded == true)
        #expect(transaction.offerType == .known(.introductoryOffer))
        #expect(transaction.offerIdentifier == "abc.123")
        #expect(transaction.environment == .known(.localTesting))
        #expect(transaction.transactionReason == .known(.purchase))
        #expect(transaction.storefront == "USA")
        #expect(transaction.storefrontId == "143441")
        #expect(transaction.price == 10990)
        #expect(transaction.currency == "USD")
        #expect(transaction.offerDiscountType == .known(.payAsYouGo))
        #expect(transaction.appTransactionId == "71134")
        #expect(transaction.offerPeriod == "P1Y")
        #expect(transaction.revocationType == nil)
        #expect(transaction.revocationPercentage == nil)
        // The 12-month commitment fields of April 2026, as Apple's libraries' samples carry them.
        #expect(transaction.billingPlanType == .known(.monthly))
        #expect(transaction.commitmentInfo?.billingPeriodNumber == 3)
        #expect(transaction.commitmentInfo?.totalBillingPeriods == 12)
        #expect(transaction.commitmentInfo?.commitmentExpiresDate == 1_698_150_000_000)
        #expect(transaction.commitmentInfo?.commitmentPrice == 119_880)
        #expect(transaction.previousOriginalTransactionId == nil)
    }

    /// A migrated subscription's notification, shaped as Apple documents it: type `MIGRATE` (`MIGRATION` in Apple's
    /// server libraries; both decode to a known type), the new subscription's transaction naming the one before in
    /// `previousOriginalTransactionId`.
    @Test(arguments: ["MIGRATE", "MIGRATION", "METADATA_UPDATE"])
    func decodesMigrationTypes(type: String) throws {
        let json = Data(
            """
            {"notificationType":"\(type)","notificationUUID":"5e5e2c6c-0a7e-4d0a-9e0e-2b8f1c1d9a01",
             "signedDate":1743465600000,"version":"2.0",
             "data":{"environment":"Production","bundleId":"com.example","appAppleId":41234}}
            """.utf8)
        let payload = try NotificationDecoder.makeJSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: json)
        #expect(payload.notificationType?.known != nil, "\(type) is a type this code knows")
        let transaction = try NotificationDecoder.decodeTransaction(
            from: Data(
                """
                {"originalTransactionId":"20002","transactionId":"20002","previousOriginalTransactionId":"10001",
                 "productId":"com.example.bundle","purchaseDate":1743465600000,"expiresDate":1746057600000,
                 "appTransactionId":"704000000000000001"}
                """.utf8))
        #expect(transaction.previousOriginalTransactionId == "10001")
        #expect(payload.notificationType?.rawValue == type, "stored as it came")
    }

    @Test func decodesTransactionWithRevocation() throws {
        let json = try Fixture.data("apple-models/signedTransactionWithRevocation.json")
        let transaction = try NotificationDecoder.decodeTransaction(from: json)
        #expect(transaction.revocationType == .known(.refundProrated))
        #expect(transaction.revocationPercentage == 50000)
        #expect(transaction.revocationReason == .known(.refundedDueToIssue))
        #expect(transaction.revocationDate == 1_698_148_950_000)
        #expect(transaction.price == 10990)
        #expect(transaction.currency == "USD")
    }

    @Test func decodesRenewalInfo() throws {
        let renewal = try NotificationDecoder.decodeRenewalInfo(
            from: Fixture.data("apple-models/signedRenewalInfo.json")
        )
        #expect(renewal.expirationIntent == .known(.customerCancelled))
        #expect(renewal.originalTransactionId == "12345")
        #expect(renewal.autoRenewProductId == "com.example.product.2")
        #expect(renewal.productId == "com.example.product")
        #expect(renewal.autoRenewStatus == .known(.on))
        #expect(renewal.isInBillingRetryPeriod == true)
        #expect(renewal.priceIncreaseStatus == .known(.customerHasNotResponded))
        #expect(renewal.gracePeriodExpiresDate == 1_698_148_900_000)
        #expect(renewal.offerType == .known(.promotionalOffer))
        #expect(renewal.offerIdentifier == "abc.123")
        #expect(renewal.signedDate == 1_698_148_800_000)
        #expect(renewal.environment == .known(.localTesting))
        #expect(renewal.recentSubscriptionStartDate == 1_698_148_800_000)
        #expect(renewal.renewalDate == 1_698_148_850_000)
        #expect(renewal.renewalPrice == 9990)
        #expect(renewal.currency == "USD")
        #expect(renewal.offerDiscountType == .known(.payAsYouGo))
        #expect(renewal.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
        #expect(renewal.appTransactionId == "71134")
        #expect(renewal.offerPeriod == "P1Y")
        #expect(renewal.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(renewal.renewalBillingPlanType == .known(.monthly))
        #expect(renewal.commitmentInfo?.commitmentAutoRenewProductId == "com.example.product.commitment")
        #expect(renewal.commitmentInfo?.commitmentAutoRenewStatus == .known(.on))
        #expect(renewal.commitmentInfo?.commitmentRenewalBillingPlanType == .known(.monthly))
        #expect(renewal.commitmentInfo?.commitmentRenewalDate == 1_698_149_500_000)
        #expect(renewal.commitmentInfo?.commitmentRenewalPrice == 9990)
    }

    @Test func decodesNotificationHistoryPage() throws {
        let json = try Fixture.data("apple-models/getNotificationHistoryResponse.json")
        let page = try NotificationDecoder.decodeHistoryPage(from: json)
        #expect(page.paginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
        #expect(page.hasMore == true)
        let items = try #require(page.notificationHistory)
        try #require(items.count == 2)
        #expect(items[0].signedPayload == "signed_payload_one")
        #expect(items[0].sendAttempts?.map(\.attemptDate) == [1_698_148_900_000, 1_698_148_950_000])
        #expect(items[0].sendAttempts?.map(\.sendAttemptResult) == [.known(.noResponse), .known(.success)])
        #expect(items[0].firstSendAttemptResult == nil)
        #expect(items[1].signedPayload == "signed_payload_two")
        #expect(items[1].sendAttempts?.first?.attemptDate == 1_698_148_800_000)
        #expect(items[1].sendAttempts?.first?.sendAttemptResult == .known(.circularRedirect))
    }

    @Test func decodesOlderHistoryItemWithFirstSendAttemptResult() throws {
        let json = #"{"notificationHistory":[{"signedPayload":"x","firstSendAttemptResult":"TLS_ISSUE"}]}"#
        let page = try NotificationDecoder.decodeHistoryPage(from: Data(json.utf8))
        #expect(page.notificationHistory?.first?.firstSendAttemptResult == .known(.tlsIssue))
        #expect(page.notificationHistory?.first?.sendAttempts == nil)
    }

    @Test func decodesAllSubscriptionStatuses() throws {
        let json = try Fixture.data("apple-models/getAllSubscriptionStatusesResponse.json")
        let response = try NotificationDecoder.decodeStatusResponse(from: json)
        #expect(response.environment == .known(.localTesting))
        #expect(response.bundleId == "com.example")
        #expect(response.appAppleId == 5_454_545)
        let groups = try #require(response.data)
        #expect(groups.map(\.subscriptionGroupIdentifier) == ["sub_group_one", "sub_group_two"])
        let first = try #require(groups.first?.lastTransactions)
        #expect(first.map(\.status) == [.known(.active), .known(.revoked)])
        #expect(first.map(\.originalTransactionId) == ["3749183", "5314314134"])
        #expect(first.map(\.signedTransactionInfo) == ["signed_transaction_one", "signed_transaction_two"])
        #expect(first.map(\.signedRenewalInfo) == ["signed_renewal_one", "signed_renewal_two"])
        #expect(groups.last?.lastTransactions?.first?.status == .known(.expired))
    }

    /// Apple's model samples carry placeholder strings where the nested tokens belong: not a JWS, so an error.
    @Test func placeholderNestedTokenIsAnErrorWithItsPath() throws {
        let json = try Fixture.data("apple-models/signedNotification.json")
        let error = #expect(throws: NotificationDecodingError.self) {
            try NotificationDecoder.decodeSignedPayload(TestToken.make(json))
        }
        #expect(error?.reason == .notJWS)
        #expect(error?.codingPath == "data.signedTransactionInfo")
    }
}
