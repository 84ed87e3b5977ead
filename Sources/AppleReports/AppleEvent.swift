import Analysis
import Foundation

/// How a value of Apple's `Event Sub Type` or `State Metric` maps to a figure of ours
/// (``BillingIssueDays/Metric``). Values Apple adds later, or that are not about billing issues, map to none and
/// are kept as they were written.
package enum AppleEvent {
    /// The metric an `Event Sub Type` counts in, from the documented forms: `Entered Grace Period from {Full Price,
    /// Contingent Price, Free Trial, Paid Offer}`, `Entered Billing Retry from {…, Grace Period}`, `{…} Recoveries
    /// from Grace Period`, `{…} Recoveries from Billing Retry`, `Involuntary Churn from {…}`; case does not matter.
    package static func metric(forEventSubType subType: String) -> BillingIssueDays.Metric? {
        let value = subType.lowercased().trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("entered grace period from") { return .enteredBillingIssue }
        if value.hasPrefix("entered billing retry from") {
            return value.hasSuffix("grace period") ? .enteredRetryFromGrace : .enteredBillingIssue
        }
        if value.hasSuffix("recoveries from grace period") || value.hasSuffix("recovery from grace period") {
            return .recoveredInGrace
        }
        if value.hasSuffix("recoveries from billing retry") || value.hasSuffix("recovery from billing retry") {
            return .recoveredInRetry
        }
        if value.hasPrefix("involuntary churn") { return .involuntaryChurn }
        return nil
    }

    /// Whether an `Event Grouping` is one of the billing groupings (`Entered Billing Issue`, `Recoveries from
    /// Billing Issue`, `Involuntary Churn`), whose sub types the comparison expects to know.
    package static func isBillingGrouping(_ grouping: String) -> Bool {
        let value = grouping.lowercased().trimmingCharacters(in: .whitespaces)
        return value == "entered billing issue" || value == "recoveries from billing issue"
            || value == "involuntary churn"
    }

    /// The metric a `State Metric` counts in: `Grace period`, `Billing retry` and `Suspended`; case does not matter.
    package static func metric(forStateMetric state: String) -> BillingIssueDays.Metric? {
        switch state.lowercased().trimmingCharacters(in: .whitespaces) {
        case "grace period": return .inGrace
        case "billing retry": return .inBillingRetry
        // Apple: commitment-based subscriptions that have missed their payments.
        case "suspended": return .inCommitmentRetry
        default: return nil
        }
    }
}
