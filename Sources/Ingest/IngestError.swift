/// A failure that stops the loading of one input file (not a bad record: those are quarantined).
package enum IngestError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    case corruptCompression(path: String, reason: String)
    /// A line byte-identical to a stored notification found that notification gone when its batch was written: rows
    /// deleted from `notifications` during the load.
    case storedNotificationMissing(path: String, line: Int)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open \(path): \(reason)"
        case .readFailed(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .corruptCompression(let path, let reason):
            return "\(path): gzip data is corrupt (\(reason))"
        case .storedNotificationMissing(let path, let line):
            return
                "\(path):\(line): the stored notification this line repeats was deleted during the load; load the file again"
        }
    }
}
