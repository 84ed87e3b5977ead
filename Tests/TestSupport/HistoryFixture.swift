import Foundation
import TestPKI

/// Signed notifications spread over recent days, as the App Store Server API's history would list them: signed by a
/// fresh test certificate authority (load them with ``trustRootDER`` as the trust root), dated within the history
/// Apple keeps, so `churn fetch` accepts their range.
package struct HistoryFixture: Sendable {
    /// One notification of the history.
    package struct Notification: Sendable, Hashable {
        package var uuid: String
        /// Unix milliseconds.
        package var signedDate: Int64
        package var type: String
        /// Whether the App Store never delivered it (what `onlyFailures` asks for).
        package var isFailure: Bool
        /// The JWS, as `signedPayload`.
        package var signedPayload: String
        /// The subscription it is about: what a request by `transactionId` matches.
        package var originalTransactionId: String?
        /// Whether the history lists it only when asked by transaction id (a notification the ranges fetched before
        /// missed, for the tests of `churn repair`).
        package var isTransactionOnly = false

        package init(
            uuid: String, signedDate: Int64, type: String, isFailure: Bool = false, signedPayload: String,
            originalTransactionId: String? = nil, isTransactionOnly: Bool = false
        ) {
            self.uuid = uuid
            self.signedDate = signedDate
            self.type = type
            self.isFailure = isFailure
            self.signedPayload = signedPayload
            self.originalTransactionId = originalTransactionId
            self.isTransactionOnly = isTransactionOnly
        }
    }

    package let notifications: [Notification]
    /// The root to trust when loading them (DER).
    package let trustRootDER: [UInt8]
    /// Midnight UTC of the first day, Unix milliseconds.
    package let firstDay: Int64
    package let days: Int

    /// `perDay` notifications on each of `days` days, the first day `daysAgo` days before today (UTC).
    /// - Parameters:
    ///   - uuidPrefix: the first 8 hex digits of every UUID, so fixtures of one test differ.
    ///   - environment: the environment each notification names.
    package init(
        days: Int = 5, perDay: Int = 7, daysAgo: Int = 12, uuidPrefix: String = "30000000",
        environment: String = "Production", bundleID: String = "com.example"
    ) throws {
        let authority = try TestCertificateAuthority(name: "History")
        let signer = try authority.signer()
        trustRootDER = try authority.rootDER()
        let today = Int64(Date().timeIntervalSince1970 * 1000) / 86_400_000 * 86_400_000
        firstDay = today - Int64(daysAgo) * 86_400_000
        self.days = days
        var notifications: [Notification] = []
        var counter = 0
        for day in 0..<days {
            for index in 0..<perDay {
                counter += 1
                let subscription = "sub-\(index % 4)"
                let type = ["DID_RENEW", "DID_FAIL_TO_RENEW", "DID_RENEW", "EXPIRED"][counter % 4]
                let signedDate = firstDay + Int64(day) * 86_400_000 + Int64(index) * 3_600_000 + 1_000
                let uuid = String(format: "\(uuidPrefix)-0000-4000-8000-%012d", counter)
                let transaction: [String: Any] = [
                    "originalTransactionId": subscription, "transactionId": "tx-\(counter)",
                    "productId": "com.example.monthly", "purchaseDate": signedDate, "price": 4990, "currency": "EUR",
                    "storefront": "DEU", "inAppOwnershipType": "PURCHASED", "environment": environment,
                    "expiresDate": signedDate + 30 * 86_400_000,
                ]
                let payload: [String: Any] = [
                    "notificationType": type, "notificationUUID": uuid, "signedDate": signedDate,
                    "data": [
                        "environment": environment, "bundleId": bundleID,
                        "signedTransactionInfo": try signer.sign(
                            try JSONSerialization.data(withJSONObject: transaction)),
                        "signedRenewalInfo": try signer.sign(
                            try JSONSerialization.data(withJSONObject: ["originalTransactionId": subscription])
                        ),
                    ],
                ]
                notifications.append(
                    Notification(
                        uuid: uuid, signedDate: signedDate, type: type, isFailure: counter % 5 == 0,
                        signedPayload: try signer.sign(try JSONSerialization.data(withJSONObject: payload)),
                        originalTransactionId: subscription
                    )
                )
            }
        }
        self.notifications = notifications
    }

    /// Midnight UTC of day `index` (from 0), Unix milliseconds.
    package func day(_ index: Int) -> Int64 {
        firstDay + Int64(index) * 86_400_000
    }

    /// `YYYY-MM-DD` of day `index`.
    package func dayText(_ index: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: Double(day(index)) / 1000))
    }

    /// The notifications signed on day `index`.
    package func notifications(onDay index: Int) -> [Notification] {
        notifications.filter { $0.signedDate >= day(index) && $0.signedDate < day(index + 1) }
    }
}
