import AppStoreNotifications
import Foundation
import TestPKI

/// Export lines (`{"signedPayload": …}`) of subscriptions' billing stories, told in days after day 0 and signed by
/// a fresh test certificate authority (load them with `root.root` as the trust root).
package struct SignedStories {
    /// Day 0: 2023-11-14T22:13:20Z.
    package static let dayZero: Int64 = 1_700_000_000_000

    /// Unix ms of `day` days after day 0.
    package static func day(_ day: Int64) -> Int64 {
        dayZero + day * 86_400_000
    }

    package let root: TestCertificateAuthority
    package let signer: JWSSigner
    /// Numbers the notifications (their UUIDs) and transactions.
    private var counter = 0

    /// The number of the latest notification made, for ``line(_:_:_:at:product:storefront:expires:grace:graceHours:price:currency:offerType:offerDiscountType:environment:bundleId:purchase:renewalPrice:renewalCurrency:copyOf:)``'s `copyOf`.
    package var lastNumber: Int { counter }

    package init(name: String) throws {
        root = try TestCertificateAuthority(name: name)
        signer = try root.signer()
    }

    /// One notification of `subscription`, signed at `day`, with its transaction and renewal info.
    ///
    /// The transaction's `purchaseDate` is `purchase` (a day), else the signed date; `graceHours` are added to the
    /// grace end's day; the renewal info carries `renewalPrice` and its `currency` when given. `copyOf` gives the
    /// line the notificationUUID of the `copyOf`-th notification made (``lastNumber`` after it): another copy of it.
    /// `transactionFields` and `renewalFields` are added to (or replace) the transaction's and renewal info's.
    package mutating func line(
        _ subscription: String, _ type: String, _ subtype: String? = nil, at day: Int64,
        product: String = "com.example.monthly", storefront: String = "USA", expires: Int64? = nil,
        grace: Int64? = nil, graceHours: Int64 = 0, price: Int64 = 2990, currency: String = "USD",
        offerType: Int? = nil, offerDiscountType: String? = nil, environment: String = "Production",
        bundleId: String = "com.example", purchase: Int64? = nil, renewalPrice: Int64? = nil,
        renewalCurrency: String? = nil, copyOf: Int? = nil, transactionFields: [String: Any] = [:],
        renewalFields: [String: Any] = [:]
    ) throws -> String {
        counter += 1
        let signedDate = Self.day(day)
        var transaction: [String: Any] = [
            "originalTransactionId": subscription, "transactionId": "\(subscription)-\(counter)",
            "productId": product, "purchaseDate": purchase.map(Self.day) ?? signedDate, "price": price,
            "currency": currency, "storefront": storefront, "inAppOwnershipType": "PURCHASED",
            "environment": environment,
        ]
        if let expires { transaction["expiresDate"] = Self.day(expires) }
        if let offerType { transaction["offerType"] = offerType }
        if let offerDiscountType { transaction["offerDiscountType"] = offerDiscountType }
        var renewal: [String: Any] = ["originalTransactionId": subscription, "environment": environment]
        if let grace { renewal["gracePeriodExpiresDate"] = Self.day(grace) + graceHours * 3_600_000 }
        if let renewalPrice { renewal["renewalPrice"] = renewalPrice }
        if let renewalCurrency { renewal["currency"] = renewalCurrency }
        transaction.merge(transactionFields) { _, given in given }
        renewal.merge(renewalFields) { _, given in given }
        var payload: [String: Any] = [
            "notificationType": type,
            "notificationUUID": String(format: "00000000-0000-4000-8000-%012d", copyOf ?? counter),
            "signedDate": signedDate,
            "data": [
                "environment": environment, "bundleId": bundleId,
                "signedTransactionInfo": try signer.sign(try JSONSerialization.data(withJSONObject: transaction)),
                "signedRenewalInfo": try signer.sign(try JSONSerialization.data(withJSONObject: renewal)),
            ],
        ]
        if let subtype { payload["subtype"] = subtype }
        return "{\"signedPayload\":\"\(try signer.sign(try JSONSerialization.data(withJSONObject: payload)))\"}"
    }

    /// A TEST notification (App Store Connect's "Request a Test Notification"), signed at `day`: no transaction, no
    /// renewal info, so no subscription.
    package mutating func testNotification(at day: Int64, environment: String = "Production") throws -> String {
        counter += 1
        let payload: [String: Any] = [
            "notificationType": "TEST",
            "notificationUUID": String(format: "00000000-0000-4000-8000-%012d", counter),
            "signedDate": Self.day(day),
            "version": "2.0",
            "data": ["environment": environment, "bundleId": "com.example"],
        ]
        return "{\"signedPayload\":\"\(try signer.sign(try JSONSerialization.data(withJSONObject: payload)))\"}"
    }
}
