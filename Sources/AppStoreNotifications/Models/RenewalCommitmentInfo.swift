/// What the next commitment of a subscription with a 12-month commitment will be (April 2026).
///
/// [RenewalCommitmentInfo](https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo)
package struct RenewalCommitmentInfo: Codable, ScannedDecodable, Hashable, Sendable {
    /// The product of the next commitment.
    package var commitmentAutoRenewProductId: String?
    /// Whether the commitment renews: 1 on, 0 off.
    package var commitmentAutoRenewStatus: OpenEnum<AutoRenewStatus>?
    /// How the next commitment will be billed.
    package var commitmentRenewalBillingPlanType: OpenEnum<BillingPlanType>?
    /// When the next commitment starts (Unix milliseconds).
    package var commitmentRenewalDate: Int64?
    /// The price of the next commitment, in milliunits of the renewal info's currency.
    package var commitmentRenewalPrice: Int64?

    /// An empty commitment; set the fields you need.
    package init() {}

    /// The members' keys, which are the properties' names.
    enum CodingKeys: String, CodingKey {
        case commitmentAutoRenewProductId, commitmentAutoRenewStatus, commitmentRenewalBillingPlanType
        case commitmentRenewalDate, commitmentRenewalPrice
    }

    init(reading container: some FieldReader<CodingKeys>) throws {
        commitmentAutoRenewProductId = try container.field(.commitmentAutoRenewProductId)
        commitmentAutoRenewStatus = try container.field(.commitmentAutoRenewStatus)
        commitmentRenewalBillingPlanType = try container.field(.commitmentRenewalBillingPlanType)
        commitmentRenewalDate = try container.unixMilliseconds(.commitmentRenewalDate)
        commitmentRenewalPrice = try container.field(.commitmentRenewalPrice)
    }
}
