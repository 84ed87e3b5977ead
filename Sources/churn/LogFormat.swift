import ArgumentParser

/// `--log-format` values.
enum LogFormat: String, NameArgument {
    case text, json

    /// The format the raw arguments ask for (`--log-format json` or `--log-format=json`), so that an error found
    /// while parsing them is written in it too; text when they ask for none or an unknown one.
    static func requested(in arguments: [String]) -> LogFormat {
        var requested = LogFormat.text
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--log-format", index + 1 < arguments.count {
                requested = LogFormat(rawValue: arguments[index + 1]) ?? requested
            } else if argument.hasPrefix("--log-format=") {
                requested = LogFormat(rawValue: String(argument.dropFirst("--log-format=".count))) ?? requested
            }
        }
        return requested
    }
}
