/// Why an App Store Connect report file could not be read: the file, the line when there is one, and the reason.
package struct AppleReportError: Error, CustomStringConvertible, Sendable, Equatable {
    package var path: String
    /// The 1-based line, when the problem is on one line.
    package var line: Int?
    package var reason: String

    package init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var description: String {
        if let line { return "\(path), line \(line): \(reason)" }
        return "\(path): \(reason)"
    }
}
