/// The Get Transaction History response: up to 20 of the customer's signed transactions and the `revision` of the
/// next set.
///
/// [HistoryResponse](https://developer.apple.com/documentation/appstoreserverapi/historyresponse)
package struct HistoryResponse: Codable, Hashable, Sendable {
    /// A token you use in a query to request the next set of transactions for the customer.
    ///
    /// [revision](https://developer.apple.com/documentation/appstoreserverapi/revision)
    package var revision: String?
    /// A Boolean value indicating whether the App Store has more transaction data.
    ///
    /// [hasMore](https://developer.apple.com/documentation/appstoreserverapi/hasmore)
    package var hasMore: Bool?
    /// The app's bundle identifier.
    ///
    /// [bundleId](https://developer.apple.com/documentation/appstoreserverapi/bundleid)
    package var bundleId: String?
    /// The app's App Store identifier.
    ///
    /// [appAppleId](https://developer.apple.com/documentation/appstoreservernotifications/appappleid)
    package var appAppleId: Int64?
    /// The environment of the response.
    ///
    /// [environment](https://developer.apple.com/documentation/appstoreserverapi/environment)
    package var environment: OpenEnum<Environment>?
    /// In-app purchase transactions for the customer, signed by Apple (JWS, decoded as
    /// ``JWSTransactionDecodedPayload``).
    ///
    /// [JWSTransaction](https://developer.apple.com/documentation/appstoreserverapi/jwstransaction)
    package var signedTransactions: [String]?

    /// An empty response; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        revision = try container.field(.revision)
        hasMore = try container.field(.hasMore)
        bundleId = try container.field(.bundleId)
        appAppleId = try container.field(.appAppleId)
        environment = try container.field(.environment)
        signedTransactions = try container.decoded(.signedTransactions)
    }
}
