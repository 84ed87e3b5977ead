import ArgumentParser

/// The exit codes `churn` uses (sysexits style), documented in `--help` and the README.
enum ExitStatus: Int32 {
    case success = 0
    case failure = 1
    case tooManyRejects = 2
    case usage = 64
    case inputUnreadable = 66
    /// A service is unreachable: the database, or the App Store Server API past its retry bounds (`EX_UNAVAILABLE`).
    case unavailable = 69
    case lockBusy = 75
    /// The App Store Server API refused the credentials (HTTP 401 or 403) (`EX_NOPERM`).
    case credentialsRefused = 77

    var exitCode: ExitCode { ExitCode(rawValue) }
}
