/// The latest transaction and renewal info of one subscription, in a status response.
///
/// [lastTransactionsItem](https://developer.apple.com/documentation/appstoreserverapi/lasttransactionsitem)
package struct LastTransactionsItem: Codable, Hashable, Sendable {
    /// The subscription's status.
    package var status: OpenEnum<Status>?
    /// The identifier of the subscription's first purchase.
    package var originalTransactionId: String?
    /// The latest transaction as a JWS.
    package var signedTransactionInfo: String?
    /// The renewal info as a JWS.
    package var signedRenewalInfo: String?

    /// An empty item; set the fields you need.
    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.field(.status)
        originalTransactionId = try container.field(.originalTransactionId)
        signedTransactionInfo = try container.field(.signedTransactionInfo)
        signedRenewalInfo = try container.field(.signedRenewalInfo)
    }
}
