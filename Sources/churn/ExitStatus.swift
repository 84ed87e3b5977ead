import ArgumentParser

/// The exit codes `churn` uses, documented in `--help` and the README.
enum ExitStatus: Int32 {
    case success = 0
    case failure = 1
    case tooManyRejects = 2
    case usage = 64
    case inputUnreadable = 66
    case databaseUnreachable = 69
    case lockBusy = 75

    var exitCode: ExitCode { ExitCode(rawValue) }
}
