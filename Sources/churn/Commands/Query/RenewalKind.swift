import ArgumentParser

/// `--trial-conversion` / `--paid-renewal`.
enum RenewalKind: String, EnumerableFlag {
    case trialConversion
    case paidRenewal

    static func help(for value: RenewalKind) -> ArgumentHelp? {
        switch value {
        case .trialConversion: return "Only episodes whose failed charge was the first after a free trial."
        case .paidRenewal: return "Only episodes whose failed charge renewed a paid period."
        }
    }
}
