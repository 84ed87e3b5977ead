/// The error of the analysis module: a user-supplied description (such as a message schedule) is not usable.
package struct AnalysisError: Error, CustomStringConvertible, Sendable {
    /// What was being read, such as "message schedule".
    package var subject: String
    /// The 1-based line, when the problem is on one line.
    package var line: Int?
    package var reason: String

    package init(subject: String, line: Int? = nil, reason: String) {
        self.subject = subject
        self.line = line
        self.reason = reason
    }

    package var description: String {
        if let line { return "\(subject), line \(line): \(reason)" }
        return "\(subject): \(reason)"
    }
}
