import Foundation

/// The exit codes `churn` uses, documented in `--help` and docs/NIGHTLY.md: sysexits(3) where one fits.
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
    /// `churn nightly --expect-new`: the run stored no new notification.
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

    /// What the code means: the line of `churn --help`, and how docs/NIGHTLY.md's table of exit codes begins each row
    /// (a test holds the two together).
    package var meaning: String {
        switch self {
        case .success: return "success"
        case .failure: return "failure (the message says what and where)"
        case .tooManyRejects: return "the load completed, but more inputs were rejected than --max-rejects allows"
        case .clusterStopped: return "churn db status: the embedded cluster is stopped"
        case .clusterNotCreated: return "churn db status: the embedded cluster is not created yet"
        case .noNewExports: return "churn nightly --expect-new: no new notification arrived"
        case .usage: return "bad usage: an unknown option, a value the option does not take"
        case .inputUnreadable: return "an input file cannot be opened or read"
        case .unavailable:
            return "the database is unreachable, or the App Store Server API gave no usable answer within the "
                + "retry bounds: retry later"
        case .temporaryFailure:
            return "try again later: another run holds the lock, or the App Store Server API's Retry-After named a "
                + "time later than --max-retry-wait allows"
        case .credentialsRefused:
            return "the database refused the credentials, or the App Store Server API did: retrying cannot help"
        case .configuration:
            return "the database settings are wrong: the database named does not exist, or DATABASE_URL / "
                + "--database-url cannot be parsed"
        }
    }

    /// What the code means in a few words, for the exit-code paragraph of a command's help (``paragraph(_:)``).
    package var brief: String {
        switch self {
        case .success: return "success"
        case .failure: return "failure"
        case .tooManyRejects: return "more rejects than --max-rejects"
        case .clusterStopped: return "cluster stopped"
        case .clusterNotCreated: return "cluster not created yet"
        case .noNewExports: return "nothing new with --expect-new"
        case .usage: return "bad usage"
        case .inputUnreadable: return "unreadable input"
        case .unavailable: return "database or Apple's API unreachable: retry later"
        case .temporaryFailure: return "try again later"
        case .credentialsRefused: return "credentials refused"
        case .configuration: return "wrong database settings"
        }
    }

    /// The exit-code paragraph of a command's help: the codes it can end with, each in a few words, wrapped to 72
    /// columns like the rest of the help, and a pointer to the whole table.
    package static func paragraph(_ statuses: [ExitStatus]) -> String {
        // A code stays on the line of its first word.
        var words = ["Exit", "codes:"]
        for (index, status) in statuses.enumerated() {
            var brief = status.brief.split(separator: " ").map(String.init)
            brief[0] = "\(status.rawValue) \(brief[0])"
            brief[brief.count - 1] += index == statuses.count - 1 ? "" : ","
            words += brief
        }
        return wrapped(words + ["(`churn", "--help`", "says", "more)."], width: 72)
    }

    /// The exit-code table of `churn --help`: each code and its meaning, wrapped under the meaning's first column
    /// so that the help fits 80 columns.
    package static var table: String {
        allCases.map { status in
            wrapped(
                status.meaning.split(separator: " ").map(String.init), width: 80 - 2,
                first: "  " + String(status.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0),
                indent: String(repeating: " ", count: 6))
        }.joined(separator: "\n")
    }

    /// `words` in lines of at most `width` characters where they fit: the first line begins with `first`, the
    /// others with `indent`.
    private static func wrapped(_ words: [String], width: Int, first: String = "", indent: String = "") -> String {
        var lines: [String] = []
        var line = first
        for (index, word) in words.enumerated() {
            if index == 0 {
                line += word
            } else if line.count + 1 + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }
}
