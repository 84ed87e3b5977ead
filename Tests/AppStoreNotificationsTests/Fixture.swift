import AppStoreNotifications
import Foundation
import Testing

/// Reads the files under `Fixtures/` (copies of `samples/`, see `Fixtures/README.md`).
enum Fixture {
    static func data(_ path: String) throws -> Data {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try Data(contentsOf: folder.appendingPathComponent(path))
    }

    /// A token file's text without surrounding white space.
    static func token(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Builds unsigned compact JWS for tests; the signature segment is a placeholder.
enum TestToken {
    static let header = #"{"alg":"ES256","x5c":["AAAA"]}"#

    static func make(_ payload: String, header: String = header) -> String {
        make(Data(payload.utf8), header: header)
    }

    static func make(_ payload: Data, header: String = header) -> String {
        Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(payload) + ".c2lnbmF0dXJl"
    }

    /// A transaction payload with a few fields.
    static let transaction = #"{"transactionId":"7","originalTransactionId":"5","price":9990,"quantity":1}"#
    /// A renewal info payload with a few fields.
    static let renewalInfo = #"{"originalTransactionId":"5","renewalDate":1700000000000,"renewalPrice":9990}"#

    /// A notification payload whose `data` holds the given nested tokens.
    static func notification(transaction: String? = nil, renewalInfo: String? = nil) -> String {
        var data = #""bundleId":"com.example","status":1"#
        if let transaction { data += #","signedTransactionInfo":"\#(transaction)""# }
        if let renewalInfo { data += #","signedRenewalInfo":"\#(renewalInfo)""# }
        return
            #"{"notificationType":"DID_RENEW","notificationUUID":"u-1","signedDate":1700000000000,"data":{\#(data)}}"#
    }
}
