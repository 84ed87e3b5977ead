import Foundation
import Logging
import PGClient
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster the tool creates and runs itself, so nothing else has to be set up.
///
/// Layout under ``home`` (by default `./.churn`, or `$CHURN_HOME`): `pgdata/` (the cluster), `run/` (its Unix
/// socket; the server listens on no TCP port), `postgres.log`. Built with the installed server's `initdb` and
/// `pg_ctl`. PostgreSQL refuses to run as root, so when the tool runs as root the server runs as the `postgres`
/// user.
package struct EmbeddedCluster: Sendable {
    /// The directory holding the cluster, its socket and its log.
    package let home: URL
    /// The database the tool uses inside the cluster.
    package let database: String
    /// Extra server settings (`-c name=value`), e.g. to trade durability for speed in tests.
    package let serverSettings: [String: String]

    package init(home: URL, database: String = "churn", serverSettings: [String: String] = [:]) {
        self.home = home.standardizedFileURL
        self.database = database
        self.serverSettings = serverSettings
    }

    /// The default home: `$CHURN_HOME`, else `.churn` in the current directory.
    package static func defaultHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["CHURN_HOME"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent(".churn", isDirectory: true)
    }

    package var dataDirectory: URL { home.appendingPathComponent("pgdata", isDirectory: true) }
    package var socketDirectory: URL { home.appendingPathComponent("run", isDirectory: true) }
    package var logFile: URL { home.appendingPathComponent("postgres.log") }

    /// The libpq connection string for the tool's database (no password: the socket is private).
    package var url: String { url(database: database) }

    package func url(database: String) -> String {
        "host=\(socketDirectory.path) dbname=\(database) user=postgres"
    }

    /// The URI form, for `psql "…"` and `DATABASE_URL`.
    package var uri: String {
        let host = socketDirectory.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-", ".", "_", "~"]))
            ?? socketDirectory.path
        return "postgresql:///\(database)?host=\(host)&user=postgres"
    }

    /// What ``status()`` reports.
    package enum State: Equatable, Sendable {
        case notInitialized
        case stopped
        case running
    }

    // MARK: - Life cycle

    /// Creates the cluster if needed, starts it if stopped, and creates the tool's database.
    /// Safe to call from several processes at once (they serialize on a lock file).
    /// - Returns: whether this call started the server.
    @discardableResult
    package func start(logger: Logger) throws -> Bool {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try withLockFile {
            let binaries = try PostgresBinaries.locate()
            if !FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) {
                try initialize(binaries, logger: logger)
            }
            var started = false
            if try currentState(binaries) != .running {
                logger.info("starting the embedded PostgreSQL", metadata: ["cluster.home": "\(home.path)"])
                try prepareSocketDirectory()
                var options = "-c listen_addresses='' -c unix_socket_directories='\(socketDirectory.path)'"
                for (name, value) in serverSettings.sorted(by: { $0.key < $1.key }) {
                    options += " -c \(name)=\(value)"
                }
                let result = try runAsServerUser(
                    binaries.pgCtl,
                    ["-D", dataDirectory.path, "-l", logFile.path, "-w", "-t", "60", "-o", options, "start"]
                )
                guard result.status == 0 else {
                    throw EmbeddedClusterError.commandFailed(
                        "pg_ctl start",
                        result.output + "\n" + tailOfLog(),
                        hint: "see \(logFile.path)"
                    )
                }
                started = true
            }
            try createDatabaseIfMissing()
            return started
        }
    }

    /// Stops the server (fast shutdown: running sessions are ended, committed work is kept).
    /// - Returns: whether a running server was stopped.
    @discardableResult
    package func stop(immediate: Bool = false) throws -> Bool {
        let binaries = try PostgresBinaries.locate()
        guard try currentState(binaries) == .running else { return false }
        let result = try runAsServerUser(
            binaries.pgCtl,
            ["-D", dataDirectory.path, "-m", immediate ? "immediate" : "fast", "-w", "-t", "60", "stop"]
        )
        guard result.status == 0 else {
            throw EmbeddedClusterError.commandFailed("pg_ctl stop", result.output, hint: nil)
        }
        return true
    }

    /// Whether the cluster exists and whether its server runs.
    package func status() throws -> State {
        try currentState(try PostgresBinaries.locate())
    }

    private func currentState(_ binaries: PostgresBinaries) throws -> State {
        guard FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) else {
            return .notInitialized
        }
        // pg_ctl status: 0 running, 3 not running, 4 no accessible data directory.
        let result = try runAsServerUser(binaries.pgCtl, ["-D", dataDirectory.path, "status"])
        return result.status == 0 ? .running : .stopped
    }

    private func initialize(_ binaries: PostgresBinaries, logger: Logger) throws {
        logger.notice("creating the embedded PostgreSQL cluster", metadata: ["cluster.home": "\(home.path)"])
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dataDirectory.path)
        if ServerUser.isRoot {
            try ServerUser.checkCanReach(home)
            try ServerUser.chown(dataDirectory)
            try ServerUser.chown(home, recursive: false)
        }
        let result = try runAsServerUser(
            binaries.initdb,
            [
                "-D", dataDirectory.path, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C",
                "--no-instructions",
            ]
        )
        guard result.status == 0 else {
            throw EmbeddedClusterError.commandFailed("initdb", result.output, hint: nil)
        }
    }

    private func prepareSocketDirectory() throws {
        try FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: socketDirectory.path)
        if ServerUser.isRoot {
            try ServerUser.chown(socketDirectory)
            if !FileManager.default.fileExists(atPath: logFile.path) {
                _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            }
            try ServerUser.chown(logFile, recursive: false)
        }
    }

    private func createDatabaseIfMissing() throws {
        let connection = try PGConnection(url: url(database: "postgres"))
        let exists = try connection.execute("SELECT 1 FROM pg_database WHERE datname = $1", [database]).rows.count > 0
        if !exists {
            let quoted = try connection.quoteIdentifier(database)
            do {
                try connection.execute("CREATE DATABASE \(quoted)")
            } catch {
                // 42P04: created by a concurrent caller in the meantime.
                guard error.sqlState == "42P04" else { throw error }
            }
        }
    }

    private func tailOfLog() -> String {
        guard let data = FileManager.default.contents(atPath: logFile.path) else { return "" }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(5)
        return lines.joined(separator: "\n")
    }

    /// Runs `body` holding an exclusive lock on `home/.lock`, so two processes never initialize or start at once.
    private func withLockFile<Result>(_ body: () throws -> Result) throws -> Result {
        let path = home.appendingPathComponent(".lock").path
        let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else {
            throw EmbeddedClusterError.notPermitted("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw EmbeddedClusterError.notPermitted("cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func runAsServerUser(_ executable: URL, _ arguments: [String]) throws -> ProcessOutput {
        if ServerUser.isRoot {
            return try ProcessOutput.run(ServerUser.runuser, ["-u", ServerUser.name, "--", executable.path] + arguments)
        }
        return try ProcessOutput.run(executable, arguments)
    }
}

/// Why the embedded cluster could not be created, started or stopped.
package enum EmbeddedClusterError: Error, CustomStringConvertible, Sendable {
    case serverNotInstalled(String)
    case notPermitted(String)
    case commandFailed(String, String, hint: String?)

    package var description: String {
        switch self {
        case .serverNotInstalled(let detail):
            return "PostgreSQL server programs not found (\(detail)). Install them with "
                + "`apt-get install postgresql` (or run `make setup`), or point the tool at a server with "
                + "--database-url / DATABASE_URL."
        case .notPermitted(let detail):
            return detail
        case .commandFailed(let command, let output, let hint):
            var text = "\(command) failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
            if let hint { text += " (\(hint))" }
            return text
        }
    }
}

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

    static func chown(_ url: URL, recursive: Bool = true) throws {
        let (uid, gid) = try ids()
        var paths = [url.path]
        if recursive, let enumerator = FileManager.default.enumerator(atPath: url.path) {
            while let relative = enumerator.nextObject() as? String {
                paths.append(url.appendingPathComponent(relative).path)
            }
        }
        for path in paths where Glibc.chown(path, uid, gid) != 0 {
            throw EmbeddedClusterError.notPermitted("cannot give \(path) to the \(name) user: \(String(cString: strerror(errno)))")
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

/// Held while a pipe is made and a child spawned (see ``ProcessOutput/run(_:_:)``).
private let spawnLock = Mutex(())

/// A finished child process: exit status and combined output.
///
/// Uses `posix_spawn` and `waitpid` directly: simple, and safe to call from any thread.
struct ProcessOutput {
    var status: Int32
    var output: String

    static func run(_ executable: URL, _ arguments: [String]) throws -> ProcessOutput {
        // The pipe is close-on-exec, and pipes are made and children spawned under one lock, so a child spawned
        // by another thread (the postmaster, which lives on) never holds this pipe open.
        let (readEnd, pid) = try spawnLock.withLock { _ in try spawn(executable, arguments) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, written out: the C macros are not imported into Swift.
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ProcessOutput(status: exitStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Spawns `executable` with its standard output and error on a new pipe.
    /// - Returns: the pipe's read end and the child's pid.
    private static func spawn(_ executable: URL, _ arguments: [String]) throws -> (Int32, pid_t) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else {
            throw EmbeddedClusterError.notPermitted("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(pipe[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipe[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])

        let argv = [executable.path] + arguments
        var pid: pid_t = 0
        let spawnResult: Int32 = withSpawnArguments(argv) { arguments in
            posix_spawn(&pid, executable.path, &actions, nil, arguments, environ)
        }
        close(pipe[1])
        guard spawnResult == 0 else {
            close(pipe[0])
            throw EmbeddedClusterError.notPermitted(
                "cannot run \(executable.path): \(String(cString: strerror(spawnResult)))"
            )
        }
        return (pipe[0], pid)
    }

    private static func withSpawnArguments<Result>(
        _ arguments: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        defer {
            for index in 0..<arguments.count { free(pointers[index]) }
            pointers.deallocate()
        }
        for (index, argument) in arguments.enumerated() { pointers[index] = strdup(argument) }
        pointers[arguments.count] = nil
        return body(UnsafePointer(pointers))
    }
}
