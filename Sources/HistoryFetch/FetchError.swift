/// A failure of a history fetch other than the API's own (``AppStoreServerAPIError``) and the database's (`PGError`).
package enum FetchError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A history file, its directory or a quarantined page cannot be written.
    case writeFailed(path: String, reason: String)
    /// Another fetch held the fetch lock for all of `waitedSeconds`.
    case lockBusy(waitedSeconds: Int)

    package var description: String {
        switch self {
        case .writeFailed(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .lockBusy(let waitedSeconds):
            return "another fetch holds the lock (waited \(waitedSeconds) s); try again later"
        }
    }
}
