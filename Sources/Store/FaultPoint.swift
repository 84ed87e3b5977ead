#if CHURN_FAULTS
    import Foundation
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
#endif

/// Named points in the job where the crash tests kill the process, to prove a kill anywhere loses nothing.
///
/// Fault injection exists only in builds that define `CHURN_FAULTS`, which the package sets for debug builds (the
/// ones the tests run). There, a point is inert unless `CHURN_FAULT=<point>[:<n>]` is set: then the process sends
/// itself SIGKILL the n-th time (default the first) it reaches that point. Points: `load.batch-copied` (a batch's
/// rows are copied, its transaction not yet committed), `load.batch-committed` (the batch is committed, its file not
/// yet complete), `load.file-merged` (a file's quarantined inputs are merged, its last transaction not yet
/// committed), `load.file-committed`, `analyze.episodes-copied`, `nightly.before-report`,
/// `fetch.page-written` (a history page is durably in its file, its checkpoint not yet committed) and
/// `fetch.page-committed` (the page's checkpoint is committed), and `messages.file-copied` (a message log's lines are
/// in its transaction's temporary table, nothing of the file committed).
///
/// In release builds, which users run, ``reach(_:)`` is an empty function: no environment variable can kill them.
/// (The calls stay: Swift 6.3 does not inline a `package` function into another module, even an `@inlinable` one.)
package enum FaultPoint {
    #if CHURN_FAULTS
        private static let target: (name: String, count: Int)? = {
            guard let value = ProcessInfo.processInfo.environment["CHURN_FAULT"], !value.isEmpty else { return nil }
            let parts = value.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
        }()
        private static let reached = Mutex(0)

        /// Marks that the job reached `name`.
        package static func reach(_ name: String) {
            guard let target, target.name == name else { return }
            let count = reached.withLock { reached in
                reached += 1
                return reached
            }
            if count == target.count {
                kill(getpid(), SIGKILL)
            }
        }
    #else
        /// Does nothing: this build has no fault points.
        package static func reach(_ name: String) {}
    #endif
}
