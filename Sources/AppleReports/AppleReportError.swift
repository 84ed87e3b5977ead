/// Why an App Store Connect report file could not be read: the file, the line when there is one, and the reason.
package struct AppleReportError: Error, CustomStringConvertible, Sendable, Equatable {
    package var path: String
    /// The 1-based line, when the problem is on one line.
    package var line: Int?
    package var reason: String
    /// The file is another App Store Connect report than the two compared: skipped with a notice, not fatal.
    package var isOtherReport: Bool

    package init(path: String, line: Int? = nil, reason: String, isOtherReport: Bool = false) {
        self.path = path
        self.line = line
        self.reason = reason
        self.isOtherReport = isOtherReport
    }

    package var description: String {
        if let line { return "\(path), line \(line): \(reason)" }
        return "\(path): \(reason)"
    }
}
