import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operating-system user the server runs as when the tool runs as root.
enum ServerUser {
    static let name = "postgres"
    static let runuser = URL(fileURLWithPath: "/usr/sbin/runuser")

    static var isRoot: Bool { geteuid() == 0 }

    static func ids() throws -> (uid_t, gid_t) {
        guard let entry = getpwnam(name) else {
            throw EmbeddedClusterError.notPermitted(
                "running as root, but there is no `\(name)` user to run PostgreSQL as (PostgreSQL refuses root). "
                    + "Install the postgresql package, which creates it, or run as an ordinary user."
            )
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Gives `url` (and, when `recursive`, everything under it) to the server user.
    static func giveToServer(_ url: URL, recursive: Bool = true) throws {
        let (uid, gid) = try ids()
        var paths = [url.path]
        if recursive, let enumerator = FileManager.default.enumerator(atPath: url.path) {
            while let relative = enumerator.nextObject() as? String {
                paths.append(url.appendingPathComponent(relative).path)
            }
        }
        for path in paths where chown(path, uid, gid) != 0 {
            throw EmbeddedClusterError.notPermitted(
                "cannot give \(path) to the \(name) user: \(String(cString: strerror(errno)))")
        }
    }

    /// The server user must be able to reach the cluster's home through every parent directory.
    static func checkCanReach(_ directory: URL) throws {
        let result = try ProcessOutput.run(runuser, ["-u", name, "--", "test", "-x", directory.path])
        guard result.status == 0 else {
            throw EmbeddedClusterError.notPermitted(
                "the \(name) user cannot reach \(directory.path) (a parent directory is private). "
                    + "Set CHURN_HOME to a directory it can reach, e.g. CHURN_HOME=/var/lib/churn, "
                    + "or use --database-url."
            )
        }
    }
}
