import Foundation
import Logging
import Synchronization
import Workflows

/// The command's own warnings and errors on stderr, for the person at the terminal or the cron mail:
/// `churn: warning: …` lines, or under `--log-format json` one JSON object each, like the log's.
enum Console {
    private static let format = Mutex(LogFormat.text)

    /// The format of what follows; set once the options are parsed (and, for a parse error, from the raw arguments).
    static func use(_ newFormat: LogFormat) {
        format.withLock { $0 = newFormat }
    }

    static func warn(_ message: String, fields: Logger.Metadata = [:]) {
        write(level: .warning, message, fields: fields)
    }

    /// The warning of a run that completed with more rejects than allowed, with the exit code the run ends with
    /// (`exit_code` in JSON logs, as a failure's line has).
    static func warnTooManyRejects(_ failure: WorkflowError) {
        warn(failure.description, fields: ["exit_code": .stringConvertible(Int(ExitStatus.tooManyRejects.rawValue))])
    }

    /// The warning of a report written without comparing with the previous one, which cannot be read.
    static func warnPreviousReportUnreadable(_ problem: String) {
        warn("the previous report cannot be read, so no comparison is shown: \(problem)")
    }

    /// A failure that ends the run; `fields` carries `exit_code`.
    static func error(_ message: String, fields: Logger.Metadata = [:]) {
        write(level: .error, message, fields: fields)
    }

    /// Whether stderr is a terminal (progress bars only there).
    static var isInteractive: Bool {
        isatty(STDERR_FILENO) == 1
    }

    private static func write(level: Logger.Level, _ message: String, fields: Logger.Metadata) {
        switch format.withLock({ $0 }) {
        case .text:
            FileHandle.standardError.write(Data("churn: \(level.rawValue): \(message)\n".utf8))
        case .json:
            // The first line is the message; what follows (ArgumentParser's help and usage lines) is `detail`.
            let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            var fields = fields
            if lines.count > 1 { fields["detail"] = .string(String(lines[1])) }
            LogRecord.write(level: level, label: "churn", message: String(lines[0]), fields: fields)
        }
    }
}
