import Foundation
import Logging

/// Writes one JSON object per log record to stderr (`--log-format json`), for log collectors under cron.
///
/// Fields: `time` (ISO 8601, UTC), `level`, `label`, `message`, and the record's metadata (dot keys kept).
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
        var object: [String: String] = [:]
        for (key, value) in metadata { object[key] = "\(value)" }
        for (key, value) in metadataProvider?.get() ?? [:] { object[key] = "\(value)" }
        for (key, value) in event.metadata ?? [:] { object[key] = "\(value)" }
        object["time"] = Self.timestamp()
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = "\(event.message)"
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
