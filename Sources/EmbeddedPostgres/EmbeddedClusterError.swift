import Foundation

/// Why the embedded cluster could not be created, started or stopped.
package enum EmbeddedClusterError: Error, CustomStringConvertible, Sendable {
    /// No `initdb` and `pg_ctl` were found; the detail says where the tool looked.
    case serverNotInstalled(String)
    /// The server user is missing, cannot reach the cluster's directory, or cannot be given its files.
    case notPermitted(String)
    /// A system call failed (the lock file, a pipe, starting a program): what was done, with the system's reason.
    case systemCallFailed(String)
    /// `initdb` or `pg_ctl` ran and failed: the command, its output, and where to look.
    case commandFailed(String, String, hint: String?)

    package var description: String {
        switch self {
        case .serverNotInstalled(let detail):
            return "PostgreSQL server programs not found (\(detail)). Install them with "
                + "`apt-get install postgresql` (or run `make setup`), or point the tool at a server with "
                + "--database-url / DATABASE_URL."
        case .notPermitted(let detail), .systemCallFailed(let detail):
            return detail
        case .commandFailed(let command, let output, let hint):
            var text = "\(command) failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
            if let hint { text += " (\(hint))" }
            return text
        }
    }
}
