import Analysis

/// The app's billing grace period setting (App Store Connect offers 3, 16 or 28 days, or none). A weekly product's
/// grace period lasts at most ``weeklyMaximumDays`` whatever the setting.
package enum GraceSetting: Hashable, Sendable, CustomStringConvertible {
    /// No grace period: a failed renewal stops service at once (`DID_FAIL_TO_RENEW` without subtype).
    case none
    /// A grace period of 3, 16 or 28 days (`DID_FAIL_TO_RENEW`/`GRACE_PERIOD` with `gracePeriodExpiresDate`).
    case days(Int)
    /// Each subscriber gets one of none, 3, 16 and 28 days, with equal odds: one export with every kind of episode
    /// (for tests; an app has one setting).
    case mixed

    /// The lengths App Store Connect offers.
    package static let allowedDays = [3, 16, 28]
    /// Apple caps the grace period of weekly subscriptions at 6 days.
    package static let weeklyMaximumDays = 6

    /// Reads `none`, `3`, `16`, `28` or `mixed`; nil for anything else.
    package init?(argument: String) {
        switch argument.lowercased() {
        case "none", "0": self = .none
        case "mixed": self = .mixed
        default:
            guard let days = Int(argument), Self.allowedDays.contains(days) else { return nil }
            self = .days(days)
        }
    }

    package var description: String {
        switch self {
        case .none: return "none"
        case .days(let days): return "\(days)"
        case .mixed: return "mixed"
        }
    }

    /// The grace period of one subscriber, in days (nil: none), drawn from `generator` when mixed.
    func days(drawingFrom generator: inout SplitMix64) -> Int? {
        switch self {
        case .none: return nil
        case .days(let days): return days
        case .mixed:
            let choice = Int(generator.next() % 4)
            return choice == 0 ? nil : Self.allowedDays[choice - 1]
        }
    }
}
