import Foundation

/// The exit codes `churn` uses, documented in `--help` and the README: sysexits(3) where one fits.
///
/// A command that ends with a status and nothing more to say throws the status itself (`db status`).
package enum ExitStatus: Int32, CaseIterable, Error {
    case success = 0
    case failure = 1
    case tooManyRejects = 2
    /// `churn db status`: the embedded cluster exists but does not run.
    case clusterStopped = 3
    /// `churn db status`: the embedded cluster was never created.
    case clusterNotCreated = 4
    /// `churn nightly --expect-new`: no export file arrived since the last run.
    case noNewExports = 5
    case usage = 64
    case inputUnreadable = 66
    /// A service is unreachable: the database, or the App Store Server API past its retry bounds (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// Try again later (`EX_TEMPFAIL`): another run holds the lock, or Apple's API asked, with `Retry-After`, for a
    /// longer wait than `--max-retry-wait` allows (the message names the instant; what was fetched is kept).
    case temporaryFailure = 75
    /// The database or the App Store Server API refused the credentials: retrying cannot help (`EX_NOPERM`).
    case credentialsRefused = 77
    /// The connection settings are wrong: a database that does not exist, a malformed `DATABASE_URL` (`EX_CONFIG`).
    case configuration = 78

    /// What the code means, for the tables of `--help` and the README.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .failure: return "failure (see the message)"
        case .tooManyRejects: return "completed, but more inputs were rejected than --max-rejects allows"
        case .clusterStopped: return "db status: the embedded cluster is stopped"
        case .clusterNotCreated: return "db status: the embedded cluster is not created yet"
        case .noNewExports: return "nightly --expect-new: no new export file arrived"
        case .usage: return "bad usage (unknown option, bad value, missing argument)"
        case .inputUnreadable: return "an input file cannot be opened or read"
        case .unavailable: return "the database or Apple's API is unreachable (retry later)"
        case .temporaryFailure:
            return "try again later: another run holds the lock, or Apple's API asked to wait longer than "
                + "--max-retry-wait (the message says until when; what was fetched is kept)"
        case .credentialsRefused: return "the database or Apple refused the credentials (retrying cannot help)"
        case .configuration:
            return "the database settings are wrong: no such database, a malformed URL (retrying cannot help)"
        }
    }

    /// The exit-code table of `churn --help`: one line a code.
    static var table: String {
        allCases.map { "  " + String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0) + $0.meaning }
            .joined(separator: "\n")
    }
}
