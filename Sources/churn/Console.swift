import Foundation

/// Messages for the person at the terminal (or the cron mail): warnings to stderr.
enum Console {
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("churn: warning: \(message)\n".utf8))
    }

    /// Whether stderr is a terminal (progress bars only there).
    static var isInteractive: Bool {
        isatty(STDERR_FILENO) == 1
    }
}
