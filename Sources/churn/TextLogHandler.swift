import Foundation
import Logging

/// Writes each log record to stderr as one line in the style of the command's own warnings and errors
/// (``Console``): `churn: warning: message (key=value, …)`, so that a cron mail reads one style, whichever part of
/// the tool wrote the line. `--log-format json` adds the time and keeps every field typed.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .notice
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        fields.merge(metadataProvider?.get() ?? [:]) { _, new in new }
        fields.merge(event.metadata ?? [:]) { _, new in new }
        var line = "churn: \(event.level.rawValue): \(event.message)"
        if !fields.isEmpty {
            line +=
                " (" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
