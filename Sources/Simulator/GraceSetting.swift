import Analysis
import CivilTime

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

    /// Reads `none` (or `off`), `3`, `16`, `28` or `mixed`; nil for anything else.
    package init?(argument: String) {
        switch argument.lowercased() {
        case "none", "off", "0": self = .none
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

/// A change of the app's grace setting during the history (`--grace-change DATE:SETTING`): every episode whose failed
/// renewal comes at or after `date` gets the new setting's grace period, each product at its own length (a weekly
/// product 6 days under 16 and under 28). Nothing else is drawn differently: with the change and without it, the same
/// subscribers draw from the same generators, so their histories part only where a grace length changes an episode's
/// course (``SimulationOptions/graceEndEffect``) and in what follows from it.
package struct GraceSettingChange: Hashable, Sendable, CustomStringConvertible {
    /// Midnight UTC of the day the setting changes (Unix ms).
    package var date: Int64
    /// `none` or a number of days; never `mixed`.
    package var setting: GraceSetting

    package init(date: Int64, setting: GraceSetting) {
        self.date = date
        self.setting = setting
    }

    /// Reads `YYYY-MM-DD:SETTING`, SETTING `off`, `3`, `16` or `28`; nil for anything else.
    package init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = CivilDate(parsing: String(parts[0])),
            let setting = GraceSetting(argument: String(parts[1])), setting != .mixed
        else { return nil }
        self.init(date: day.unixMilliseconds, setting: setting)
    }

    package var description: String {
        let day = CivilDate(daysSinceEpoch: Int(date / Milliseconds.day))
        let setting = setting == .none ? "off" : setting.description
        return
            "\(day.year.zeroPadded(width: 4))-\(day.month.zeroPadded(width: 2))-\(day.day.zeroPadded(width: 2)):\(setting)"
    }

    /// The new setting's grace period, in days (nil: none).
    var days: Int? {
        if case .days(let days) = setting { return days }
        return nil
    }
}
