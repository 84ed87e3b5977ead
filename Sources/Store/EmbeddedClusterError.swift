import Foundation

/// Why the embedded cluster could not be created, started or stopped.
package enum EmbeddedClusterError: Error, CustomStringConvertible, Sendable {
    case serverNotInstalled(String)
    case notPermitted(String)
    case commandFailed(String, String, hint: String?)

    package var description: String {
        switch self {
        case .serverNotInstalled(let detail):
            return "PostgreSQL server programs not found (\(detail)). Install them with "
                + "`apt-get install postgresql` (or run `make setup`), or point the tool at a server with "
                + "--database-url / DATABASE_URL."
        case .notPermitted(let detail):
            return detail
        case .commandFailed(let command, let output, let hint):
            var text = "\(command) failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
            if let hint { text += " (\(hint))" }
            return text
        }
    }
}
