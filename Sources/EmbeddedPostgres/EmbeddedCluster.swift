import Foundation
import Logging
import PGClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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

    /// The settings the embedded server starts with (``serverSettings`` override them): it serves this tool alone,
    /// on this machine.
    ///
    /// - `jit` off: compiling the few large queries (the returns join, the analysis scan) took longer than it saved.
    /// - `wal_level` minimal (with `max_wal_senders` 0, which it requires): nobody replicates or archives this
    ///   cluster, and at that level PostgreSQL writes no row information to the WAL for a table truncated in the same
    ///   transaction (its documentation of `wal_level`): a full analysis truncates its tables and COPYs them anew.
    ///   Crash recovery is what it is at any level.
    ///
    /// The planner's cost of a page read out of order stays PostgreSQL's: with it lowered (`random_page_cost` 1.1,
    /// `effective_cache_size` half the memory) the analysis read its notifications along the subscription index,
    /// faster at 1 M notifications, whose table fits in the page cache, but at 10 M, whose 19 GB table does not,
    /// `analyze --full` took 176–216 s against a 45–65 s scan (docs/PERFORMANCE.md).
    package static let defaultSettings = ["jit": "off", "wal_level": "minimal", "max_wal_senders": "0"]

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
        "host=\(Self.conninfoValue(socketDirectory.path)) dbname=\(Self.conninfoValue(database)) user=postgres"
    }

    /// A conninfo value in single quotes, its backslashes and quotes escaped: a space or quote in it stays in it.
    private static func conninfoValue(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// The URI form, for `psql "…"` and `DATABASE_URL`.
    package var uri: String {
        let host =
            socketDirectory.path.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics.union(["-", ".", "_", "~"]))
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
                // pg_ctl hands the options to the shell: the path goes in single quotes, each quote in it as '\''.
                let socketPath = "'" + socketDirectory.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
                var options = "-c listen_addresses='' -c unix_socket_directories=\(socketPath)"
                let settings = Self.defaultSettings.merging(serverSettings) { _, given in given }
                for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
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

    /// Stops the server: a fast shutdown (running sessions are ended, committed work is kept), or with `immediate`
    /// an immediate one (no checkpoint: the next start replays the write-ahead log).
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
            try ServerUser.giveToServer(dataDirectory)
            try ServerUser.giveToServer(home, recursive: false)
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
            try ServerUser.giveToServer(socketDirectory)
            if !FileManager.default.fileExists(atPath: logFile.path) {
                _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            }
            try ServerUser.giveToServer(logFile, recursive: false)
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
            throw EmbeddedClusterError.systemCallFailed("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw EmbeddedClusterError.systemCallFailed("cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func runAsServerUser(_ executable: URL, _ arguments: [String]) throws -> ProcessOutput {
        if ServerUser.isRoot {
            return try ProcessOutput.run(
                ServerUser.runuser, ["-u", ServerUser.name, "--", executable.path] + arguments)
        }
        return try ProcessOutput.run(executable, arguments)
    }
}
