import EmbeddedPostgres
import Foundation
import Logging
import PGClient
import Store
import Synchronization

/// The PostgreSQL server the test run uses: a throwaway cluster it starts itself (initdb + pg_ctl on a private
/// Unix socket, as the `postgres` user when running as root), or the server in `CHURN_TEST_DATABASE_URL`.
///
/// Tests never skip for want of a server: when none can be had, every database test fails with the reason.
package enum TestDatabase {
    /// A schema of its own for one test, so tests cannot see each other's rows.
    package struct Schema: Sendable {
        package var name: String
        /// A libpq conninfo string whose `search_path` is this schema.
        package var url: String

        package init(name: String, url: String) {
            self.name = name
            self.url = url
        }

        /// Opens a new connection to the schema.
        package func connect() throws -> PGConnection {
            try PGConnection(url: url)
        }

        /// Opens a connection and applies the project's migrations.
        package func migrated() throws -> PGConnection {
            let connection = try connect()
            try Migrator(logger: Logger.test).migrate(connection)
            return connection
        }
    }

    private static let server: Result<String, TestDatabaseError> = startServer()

    /// The conninfo of the test server's database (without a schema).
    package static func baseURL() throws -> String {
        try server.get()
    }

    /// Creates a fresh, empty schema and returns how to reach it.
    /// - Parameter settings: server settings for every session of the schema's URL (names and values from the
    ///   test's code: they are not quoted).
    package static func makeSchema(_ label: String = "t", settings: [String: String] = [:]) throws -> Schema {
        let base = try baseURL()
        let name =
            "\(label.lowercased().filter { $0.isLetter || $0.isNumber })_\(UUID().uuidString.prefix(8).lowercased())"
        let connection = try PGConnection(url: base)
        try connection.execute("CREATE SCHEMA \(try connection.quoteIdentifier(name))")
        let options = (["search_path": name].merging(settings) { $1 }).sorted { $0.key < $1.key }
            .map { "-c \($0.key)=\($0.value)" }.joined(separator: " ")
        return Schema(name: name, url: "\(base) options='\(options)'")
    }

    private static func startServer() -> Result<String, TestDatabaseError> {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["CHURN_TEST_DATABASE_URL"], !url.isEmpty {
            return .success(url)
        }
        removeAbandonedClusters()
        let home = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(6))", isDirectory: true)
        let cluster = EmbeddedCluster(
            home: home,
            database: "churn_test",
            // The suite's tests run at once, many of them with several churn processes, each with a reader and a
            // writer: PostgreSQL's default of 100 connections was once exceeded ("too many clients already").
            serverSettings: [
                "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "400",
            ]
        )
        do {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.path)
            try cluster.start(logger: Logger.test)
        } catch {
            return .failure(TestDatabaseError(message: "cannot start the test PostgreSQL cluster: \(error)"))
        }
        TestClusterRegistry.started.withLock { $0 = cluster }
        // Swift Testing may end the process without running atexit handlers; the next run then removes this
        // cluster (see removeAbandonedClusters), and `make test` removes it when the run ends.
        atexit {
            guard let cluster = TestClusterRegistry.started.withLock({ $0 }) else { return }
            _ = try? cluster.stop(immediate: true)
            try? FileManager.default.removeItem(at: cluster.home)
        }
        return .success(cluster.url)
    }
}

extension TestDatabase {
    private static let prefix = "churn-tests-"

    /// Stops and removes test clusters left behind by earlier test processes that have ended.
    private static func removeAbandonedClusters() {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let cluster = EmbeddedCluster(home: temporary.appendingPathComponent(name, isDirectory: true))
            _ = try? cluster.stop(immediate: true)
            try? FileManager.default.removeItem(at: cluster.home)
        }
    }
}

/// Why the test database is unavailable.
package struct TestDatabaseError: Error, CustomStringConvertible, Sendable {
    package var message: String

    package init(message: String) {
        self.message = message
    }

    package var description: String { message }
}

/// The cluster to stop when the test process exits.
enum TestClusterRegistry {
    static let started = Mutex<EmbeddedCluster?>(nil)
}

extension Logger {
    /// A logger for tests: warnings and errors only, so test output stays readable.
    package static var test: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }
}
