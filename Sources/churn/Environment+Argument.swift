import AppStoreNotifications
import ArgumentParser

/// `--environment`: Apple's names in any case (`production`, `Sandbox`, `SANDBOX`); anything else, such as `prod`,
/// is bad usage rather than a silent report on no episodes.
extension Environment: ExpressibleByArgument {
    package init?(argument: String) {
        let name = argument.lowercased()
        guard let environment = Self.allCases.first(where: { $0.rawValue.lowercased() == name }) else { return nil }
        self = environment
    }

    package static var allValueStrings: [String] {
        allCases.map(\.rawValue)
    }
}
