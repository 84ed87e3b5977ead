/// Where a transaction stands in a 12-month commitment billed monthly (April 2026).
///
/// [TransactionCommitmentInfo](https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo)
package struct TransactionCommitmentInfo: Codable, ScannedDecodable, Hashable, Sendable {
    /// The installment this transaction pays, from 1.
    package var billingPeriodNumber: Int32?
    /// When the commitment ends (Unix milliseconds).
    package var commitmentExpiresDate: Int64?
    /// The price of the whole commitment, in milliunits of the transaction's currency.
    package var commitmentPrice: Int64?
    /// The installments of the commitment.
    package var totalBillingPeriods: Int32?

    /// An empty commitment; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case billingPeriodNumber, commitmentExpiresDate, commitmentPrice, totalBillingPeriods
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        billingPeriodNumber = try container.field(.billingPeriodNumber)
        commitmentExpiresDate = try container.unixMilliseconds(.commitmentExpiresDate)
        commitmentPrice = try container.field(.commitmentPrice)
        totalBillingPeriods = try container.field(.totalBillingPeriods)
    }
}
