import ArgumentParser
import Logging

/// `--log-level` values.
enum LogLevel: String, NameArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level {
        Logger.Level(rawValue: rawValue) ?? .notice
    }
}
