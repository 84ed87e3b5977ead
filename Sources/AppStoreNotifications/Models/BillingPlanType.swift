/// How a subscription with a 12-month commitment is billed: the whole commitment up front, or monthly.
///
/// [billingPlanType](https://developer.apple.com/documentation/appstoreserverapi/billingplantype) (transactions) and
/// [renewalBillingPlanType](https://developer.apple.com/documentation/appstoreserverapi/renewalbillingplantype)
/// (renewal info), April 2026: both take these values.
package enum BillingPlanType: String, CaseIterable, Sendable {
    /// The whole commitment is charged at once.
    case billedUpfront = "BILLED_UPFRONT"
    /// The commitment is charged in monthly installments.
    case monthly = "MONTHLY"
}
