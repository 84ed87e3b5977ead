import ArgumentParser

/// `--log-format` values.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
