/// A failure that stops the loading of one input file (not a bad record: those are quarantined).
package enum IngestError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    case corruptCompression(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open \(path): \(reason)"
        case .readFailed(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .corruptCompression(let path, let reason):
            return "\(path): gzip data is corrupt (\(reason))"
        }
    }
}
