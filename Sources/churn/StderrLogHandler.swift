import Foundation
import Logging

/// Writes each log record to stderr as one line, in the format `--log-format` chose:
/// - text: in the style of the command's own warnings and errors (``Console``), `churn: warning: message
///   (key=value, …)`, so that a cron mail reads one style whichever part of the tool wrote the line;
/// - json: one JSON object per record for log collectors (``LogRecord``): `time` (ISO 8601, UTC), `level`, `label`,
///   `message`, and the record's metadata (dot keys kept).
struct StderrLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .notice
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, format: LogFormat) {
        self.label = label
        self.format = format
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        fields.merge(metadataProvider?.get() ?? [:]) { _, new in new }
        fields.merge(event.metadata ?? [:]) { _, new in new }
        switch format {
        case .text:
            var line = "churn: \(event.level.rawValue): \(event.message)"
            if !fields.isEmpty {
                line +=
                    " (" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
                    + ")"
            }
            FileHandle.standardError.write(Data((line + "\n").utf8))
        case .json:
            LogRecord.write(level: event.level, label: label, message: "\(event.message)", fields: fields)
        }
    }
}
