import AppStoreNotifications
import Foundation
import NotificationTypes
import Testing

/// Signed tokens: Apple's mocks, StoreKit Testing in Xcode, and one subscription's billing-issue life.
@Suite struct SignedPayloadTests {
    // MARK: Apple's mock-signed tokens

    @Test func decodesAppleTestNotification() throws {
        let decoded = try NotificationDecoder.decodeSignedPayload(Fixture.token("apple-mock-signed/testNotification"))
        #expect(decoded.payload.notificationType == .known(.test))
        #expect(decoded.payload.subtype == nil)
        #expect(decoded.payload.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(decoded.payload.signedDate == 1_681_314_324_000)
        #expect(decoded.payload.data?.appAppleId == 1234)
        #expect(decoded.payload.data?.environment == .known(.sandbox))
        #expect(decoded.payload.data?.bundleId == "com.example")
        #expect(decoded.transaction == nil)
        #expect(decoded.renewalInfo == nil)
        #expect(decoded.transactionJWS == nil)
        #expect(decoded.jws.header.alg == "ES256")
        #expect(decoded.jws.header.typ == "JWT")
        #expect(decoded.jws.header.x5c?.count == 3)
        let document = try JSONSerialization.jsonObject(with: decoded.document) as? NSDictionary
        #expect(document == (try JSONSerialization.jsonObject(with: decoded.jws.payload) as? NSDictionary))
    }

    /// A token inside a larger buffer (as the loader passes the token of an export line) parses as the token alone.
    @Test func parsesATokenInsideALine() throws {
        let token = try Fixture.token("apple-mock-signed/testNotification")
        let line = Array("{\"signedPayload\":\"\(token)\"}".utf8)
        let slice = line[18..<(line.count - 2)]
        let alone = try JWS.parse(token)
        let inside = try JWS.parse(bytes: slice)
        #expect(inside.payload == alone.payload)
        #expect(inside.signature == alone.signature)
        #expect(Array(inside.signingInput) == Array(alone.signingInput))
        let parts = token.split(separator: ".")
        #expect(Array(inside.signingInput) == Array("\(parts[0]).\(parts[1])".utf8))
        let decoded = try NotificationDecoder.decodeSignedPayload(bytes: slice)
        #expect(decoded.document == (try NotificationDecoder.decodeSignedPayload(token)).document)
    }

    @Test func decodesAppleSignedTransaction() throws {
        let token = try Fixture.token("apple-mock-signed/transactionInfo")
        let transaction = try NotificationDecoder.decodeSignedTransaction(token)
        #expect(transaction.environment == .known(.sandbox))
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.signedDate == 1_672_956_154_000)
    }

    @Test func decodesAppleSignedRenewalInfo() throws {
        let renewal = try NotificationDecoder.decodeSignedRenewalInfo(Fixture.token("apple-mock-signed/renewalInfo"))
        #expect(renewal.environment == .known(.sandbox))
        #expect(renewal.signedDate == 1_672_956_154_000)
    }

    /// Apple's verifier mocks carry no `signedDate`, which the loader needs, so they are refused as notifications.
    @Test(arguments: ["wrongBundleId", "missingX5CHeaderClaim"])
    func refusesAppleMockWithoutSignedDate(file: String) throws {
        let token = try Fixture.token("apple-mock-signed/\(file)")
        let error = #expect(throws: NotificationDecodingError.self) {
            try NotificationDecoder.decodeSignedPayload(token)
        }
        #expect(error?.reason == .missingField)
        #expect(error?.codingPath == "signedDate")
    }

    @Test func keepsHeaderWithoutCertificateChain() throws {
        let jws = try JWS.parse(Fixture.token("apple-mock-signed/missingX5CHeaderClaim"))
        #expect(jws.header.x5c == nil)
        #expect(jws.header.alg == "ES256")
    }

    // MARK: StoreKit Testing in Xcode

    @Test func decodesXcodeTransactionWithFractionalDates() throws {
        let token = try Fixture.token("xcode/xcode-signed-transaction")
        let transaction = try NotificationDecoder.decodeSignedTransaction(token)
        #expect(transaction.environment == .known(.xcode))
        #expect(transaction.purchaseDate == 1_697_679_936_049)
        #expect(transaction.originalPurchaseDate == 1_697_679_936_049)
        #expect(transaction.expiresDate == 1_700_358_336_049)
        #expect(transaction.signedDate == 1_697_679_936_056)
        #expect(transaction.transactionId == "0")
        #expect(transaction.isUpgraded == false)
        #expect(transaction.offerType == .known(.introductoryOffer))
        #expect(transaction.type == .known(.autoRenewableSubscription))
        #expect(transaction.storefront == "USA")
        #expect(try JWS.parse(token).header.kid == "Apple_Xcode_Key")
        #expect(try JWS.parse(token).header.x5c?.count == 1)
    }

    @Test func decodesXcodeRenewalInfoWithFractionalDates() throws {
        let renewal = try NotificationDecoder.decodeSignedRenewalInfo(Fixture.token("xcode/xcode-signed-renewal-info"))
        #expect(renewal.environment == .known(.xcode))
        #expect(renewal.renewalDate == 1_700_358_336_049)
        #expect(renewal.recentSubscriptionStartDate == 1_697_679_936_049)
        #expect(renewal.signedDate == 1_697_679_936_711)
        #expect(renewal.autoRenewStatus == .known(.on))
        #expect(renewal.originalTransactionId == "0")
    }

    @Test func decodesXcodeAppTransactionBeforeTheEpoch() throws {
        let token = try Fixture.token("xcode/xcode-signed-app-transaction")
        let app = try NotificationDecoder.decodeSignedAppTransaction(token)
        #expect(app.originalPurchaseDate == -62_135_769_600_000)
        #expect(app.receiptCreationDate == 1_697_680_122_257)
        #expect(app.receiptType == .known(.xcode))
        #expect(app.applicationVersion == "1")
        #expect(app.originalApplicationVersion == "1")
        #expect(app.deviceVerificationNonce == "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92")
        #expect(app.bundleId == "com.example.naturelab.backyardbirds.example")
    }

    @Test func encodesFractionalDatesAsWholeMilliseconds() throws {
        let transaction = try NotificationDecoder.decodeSignedTransaction(
            Fixture.token("xcode/xcode-signed-transaction")
        )
        let json = String(decoding: try NotificationDecoder.makeJSONEncoder().encode(transaction), as: UTF8.self)
        #expect(json.contains(#""purchaseDate":1697679936049,"#))
        #expect(json.contains(#""signedDate":1697679936056,"#))
        #expect(!json.contains("1697679936049.7"))
    }

    @Test(
        arguments: [
            ("1697679936049.7297", 1_697_679_936_049),
            ("1697679936049.0", 1_697_679_936_049),
            ("1e3", 1000),
            ("-1.5", -2),
            ("-62135769600000", -62_135_769_600_000),
            ("9223372036854775807", Int64.max),
        ] as [(String, Int64)]
    )
    func roundsFractionalMillisecondsDown(literal: String, expected: Int64) throws {
        let json = #"{"signedDate":\#(literal)}"#
        let transaction = try NotificationDecoder.decodeTransaction(from: Data(json.utf8))
        #expect(transaction.signedDate == expected)
    }

    // MARK: One subscription's billing-issue life

    struct LifecycleStep: Sendable, CustomTestStringConvertible {
        var file: String
        var type: NotificationTypeV2
        var subtype: Subtype?
        var status: Status
        var uuid: String
        var signedDate: Int64
        var transactionId: String
        var purchaseDate: Int64
        var expiresDate: Int64
        var transactionReason: TransactionReason
        var expirationIntent: ExpirationIntent?
        var isInBillingRetryPeriod: Bool?
        var gracePeriodExpiresDate: Int64?
        var renewalDate: Int64

        var testDescription: String { file }
    }

    static let lifecycle: [LifecycleStep] = [
        LifecycleStep(
            file: "01_DID_FAIL_TO_RENEW_GRACE_PERIOD.jws",
            type: .didFailToRenew,
            subtype: .gracePeriod,
            status: .billingGracePeriod,
            uuid: "093f9e0a-308c-5edd-83aa-70179d290f4a",
            signedDate: 1_711_843_260_000,
            transactionId: "1000000000000001",
            purchaseDate: 1_709_251_200_000,
            expiresDate: 1_711_843_200_000,
            transactionReason: .purchase,
            expirationIntent: .billingError,
            isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: 1_713_225_600_000,
            renewalDate: 1_711_843_200_000
        ),
        LifecycleStep(
            file: "02_GRACE_PERIOD_EXPIRED.jws",
            type: .gracePeriodExpired,
            subtype: nil,
            status: .billingRetry,
            uuid: "852a80b4-5552-55eb-9dcd-27681088e767",
            signedDate: 1_713_225_660_000,
            transactionId: "1000000000000001",
            purchaseDate: 1_709_251_200_000,
            expiresDate: 1_711_843_200_000,
            transactionReason: .purchase,
            expirationIntent: .billingError,
            isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: 1_713_225_600_000,
            renewalDate: 1_711_843_200_000
        ),
        LifecycleStep(
            file: "03_DID_RENEW_BILLING_RECOVERY.jws",
            type: .didRenew,
            subtype: .billingRecovery,
            status: .active,
            uuid: "a4d7c5e8-7307-5570-8c5a-d946a51ef84b",
            signedDate: 1_713_571_205_000,
            transactionId: "1000000000000002",
            purchaseDate: 1_713_571_200_000,
            expiresDate: 1_716_163_200_000,
            transactionReason: .renewal,
            expirationIntent: nil,
            isInBillingRetryPeriod: nil,
            gracePeriodExpiresDate: nil,
            renewalDate: 1_716_163_200_000
        ),
        LifecycleStep(
            file: "04_DID_FAIL_TO_RENEW.jws",
            type: .didFailToRenew,
            subtype: nil,
            status: .billingRetry,
            uuid: "c7d487d1-047a-5e01-b7b7-4ce2abebee0a",
            signedDate: 1_716_163_260_000,
            transactionId: "1000000000000002",
            purchaseDate: 1_713_571_200_000,
            expiresDate: 1_716_163_200_000,
            transactionReason: .renewal,
            expirationIntent: .billingError,
            isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: nil,
            renewalDate: 1_716_163_200_000
        ),
        LifecycleStep(
            file: "05_EXPIRED_BILLING_RETRY.jws",
            type: .expired,
            subtype: .billingRetry,
            status: .expired,
            uuid: "453029a2-973c-5229-a673-34c6be60e79d",
            signedDate: 1_721_347_200_000,
            transactionId: "1000000000000002",
            purchaseDate: 1_713_571_200_000,
            expiresDate: 1_716_163_200_000,
            transactionReason: .renewal,
            expirationIntent: .billingError,
            isInBillingRetryPeriod: false,
            gracePeriodExpiresDate: nil,
            renewalDate: 1_716_163_200_000
        ),
    ]

    @Test(arguments: lifecycle)
    func decodesBillingLifecycleStep(step: LifecycleStep) throws {
        let decoded = try NotificationDecoder.decodeSignedPayload(Fixture.token("billing-lifecycle/\(step.file)"))
        let payload = decoded.payload
        #expect(payload.notificationType == .known(step.type))
        #expect(payload.subtype == step.subtype.map { .known($0) })
        #expect(payload.notificationUUID == step.uuid)
        #expect(payload.signedDate == step.signedDate)
        #expect(payload.version == "2.0")
        #expect(payload.data?.status == .known(step.status))
        #expect(payload.data?.environment == .known(.sandbox))
        #expect(payload.data?.bundleId == "com.example")
        #expect(payload.data?.bundleVersion == "42")
        #expect(payload.data?.appAppleId == 1234)

        let transaction = try #require(decoded.transaction)
        #expect(transaction.originalTransactionId == "1000000000000001")
        #expect(transaction.transactionId == step.transactionId)
        #expect(transaction.purchaseDate == step.purchaseDate)
        #expect(transaction.expiresDate == step.expiresDate)
        #expect(transaction.originalPurchaseDate == 1_709_251_200_000)
        #expect(transaction.signedDate == step.signedDate)
        #expect(transaction.transactionReason == .known(step.transactionReason))
        #expect(transaction.price == 9990)
        #expect(transaction.currency == "USD")
        #expect(transaction.environment == .known(.sandbox))
        #expect(transaction.appTransactionId == "704000000000000001")

        let renewal = try #require(decoded.renewalInfo)
        #expect(renewal.originalTransactionId == "1000000000000001")
        #expect(renewal.autoRenewStatus == .known(.on))
        #expect(renewal.expirationIntent == step.expirationIntent.map { .known($0) })
        #expect(renewal.isInBillingRetryPeriod == step.isInBillingRetryPeriod)
        #expect(renewal.gracePeriodExpiresDate == step.gracePeriodExpiresDate)
        #expect(renewal.renewalDate == step.renewalDate)
        #expect(renewal.renewalPrice == 9990)
        #expect(renewal.recentSubscriptionStartDate == 1_709_251_200_000)

        #expect(decoded.transactionJWS?.header.x5c?.count == 3)
        #expect(decoded.renewalInfoJWS?.header.alg == "ES256")
        #expect(decoded.appTransaction == nil)
    }

    @Test func decodesConcurrently() async throws {
        let tokens = try Self.lifecycle.map { try Fixture.token("billing-lifecycle/\($0.file)") }
        let uuids = await withTaskGroup(of: String?.self) { group in
            for round in 0..<200 {
                let token = tokens[round % tokens.count]
                group.addTask { try? NotificationDecoder.decodeSignedPayload(token).payload.notificationUUID }
            }
            var uuids: [String?] = []
            for await uuid in group { uuids.append(uuid) }
            return uuids
        }
        #expect(uuids.count == 200)
        #expect(Set(uuids.compactMap { $0 }) == Set(Self.lifecycle.map(\.uuid)))
        #expect(!uuids.contains(nil))
    }

    @Test func decodesBillingLifecycleHistoryPage() throws {
        let page = try NotificationDecoder.decodeHistoryPage(
            from: Fixture.data("billing-lifecycle/notificationHistoryPage.json")
        )
        #expect(page.hasMore == false)
        #expect(page.paginationToken == nil)
        let items = try #require(page.notificationHistory)
        try #require(items.count == Self.lifecycle.count)
        #expect(items[1].sendAttempts?.map(\.sendAttemptResult) == [.known(.timedOut), .known(.success)])
        #expect(items[1].sendAttempts?.map(\.attemptDate) == [1_713_225_661_500, 1_713_229_260_000])
        for (item, step) in zip(items, Self.lifecycle) {
            let token = try #require(item.signedPayload)
            #expect(token == (try Fixture.token("billing-lifecycle/\(step.file)")))
            let decoded = try NotificationDecoder.decodeSignedPayload(token)
            #expect(decoded.payload.notificationUUID == step.uuid)
            #expect(item.sendAttempts?.last?.sendAttemptResult == .known(.success))
        }
    }
}
