import ArgumentParser

/// An option whose values are names (`--outcome`, `--format`, `--environment`, …): taken in any case, so that
/// `--outcome Expired` means what `--outcome expired` does, as `--environment sandbox` means `Sandbox`. Help lists the
/// names as the tool writes them.
protocol NameArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension NameArgument {
    package init?(argument: String) {
        let name = argument.lowercased()
        guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == name }) else { return nil }
        self = value
    }

    package static var allValueStrings: [String] {
        allCases.map(\.rawValue)
    }
}
