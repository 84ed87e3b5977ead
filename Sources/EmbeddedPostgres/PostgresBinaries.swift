import Foundation

/// The server programs of the installed PostgreSQL.
struct PostgresBinaries {
    var initdb: URL
    var pgCtl: URL

    /// `$CHURN_PG_BIN`, else the newest `/usr/lib/postgresql/<major>/bin`, else `initdb` on the PATH.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PostgresBinaries {
        var candidates: [URL] = []
        if let directory = environment["CHURN_PG_BIN"], !directory.isEmpty {
            candidates.append(URL(fileURLWithPath: directory, isDirectory: true))
        }
        let root = "/usr/lib/postgresql"
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: root) {
            for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
                candidates.append(URL(fileURLWithPath: "\(root)/\(version)/bin", isDirectory: true))
            }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(directory), isDirectory: true))
        }
        for directory in candidates {
            let initdb = directory.appendingPathComponent("initdb")
            let pgCtl = directory.appendingPathComponent("pg_ctl")
            if FileManager.default.isExecutableFile(atPath: initdb.path),
                FileManager.default.isExecutableFile(atPath: pgCtl.path)
            {
                return PostgresBinaries(initdb: initdb, pgCtl: pgCtl)
            }
        }
        throw EmbeddedClusterError.serverNotInstalled("no initdb and pg_ctl in \(root)/*/bin, $CHURN_PG_BIN or PATH")
    }
}
