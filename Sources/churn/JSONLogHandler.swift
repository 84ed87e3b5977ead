import Logging

/// Writes one JSON object per log record to stderr (`--log-format json`), for log collectors under cron.
///
/// Fields: `time` (ISO 8601, UTC), `level`, `label`, `message`, and the record's metadata (dot keys kept), as
/// ``LogRecord`` writes them.
struct JSONLogHandler: LogHandler {
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
        LogRecord.write(level: event.level, label: label, message: "\(event.message)", fields: fields)
    }
}
