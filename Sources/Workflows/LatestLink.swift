import Foundation
import Reports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `latest` link of a reports root, which `churn nightly` points at the report it wrote.
package enum LatestLink {
    /// Points `root/latest` at `name` (a relative symbolic link), replacing any previous link atomically.
    /// - Throws: ``ReportsError`` naming the link and the system's reason.
    package static func point(in root: URL, at name: String) throws {
        let link = root.appendingPathComponent("latest").path
        let temporary = root.appendingPathComponent(".latest.\(getpid())").path
        unlink(temporary)
        guard symlink(name, temporary) == 0 else {
            throw ReportsError(
                operation: "linking the latest report", path: temporary, reason: String(cString: strerror(errno))
            )
        }
        guard rename(temporary, link) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReportsError(operation: "replacing the latest report link", path: link, reason: reason)
        }
    }
}
