/// The error of the reports module: a report file could not be written, or a previous report could not be read.
package struct ReportsError: Error, CustomStringConvertible, Sendable {
    /// What was being done, such as "writing the report" or "reading the previous report".
    package var operation: String
    /// The file or directory concerned.
    package var path: String
    package var reason: String

    package init(operation: String, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    package var description: String {
        "\(operation): \(path): \(reason)"
    }
}
