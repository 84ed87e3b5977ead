import Foundation
import Logging
import PGClient

/// Which PostgreSQL server the tool talks to, decided once per run.
///
/// In order: `--database-url`, then `DATABASE_URL`, then libpq's own `PG*` variables (`PGHOST`, `PGHOSTADDR`,
/// `PGDATABASE`, `PGSERVICE`), and with none of these the embedded cluster under `$CHURN_HOME` or `./.churn`.
package enum DatabaseTarget: Sendable {
    /// A server named by a libpq URI or conninfo string.
    case url(String)
    /// libpq's `PG*` environment variables.
    case libpqEnvironment
    /// The tool's own local cluster.
    case embedded(EmbeddedCluster)

    package static func resolve(
        explicitURL: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DatabaseTarget {
        if let explicitURL, !explicitURL.isEmpty { return .url(explicitURL) }
        if let url = environment["DATABASE_URL"], !url.isEmpty { return .url(url) }
        let libpqVariables = ["PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE"]
        if libpqVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) { return .libpqEnvironment }
        return .embedded(EmbeddedCluster(home: EmbeddedCluster.defaultHome(environment: environment)))
    }

    /// Opens a connection, starting the embedded cluster first when that is the target.
    package func connect(logger: Logger) throws -> PGConnection {
        let connection: PGConnection
        switch self {
        case .url(let url):
            connection = try PGConnection(url: url)
        case .libpqEnvironment:
            connection = try PGConnection(url: nil)
        case .embedded(let cluster):
            try cluster.start(logger: logger)
            connection = try PGConnection(url: cluster.url)
        }
        try Self.endSessionWhenClientDies(connection)
        return connection
    }

    /// Asks the server (PostgreSQL 14 and later) to check every 10 s, while a statement runs, that this client is
    /// still there: a run killed while it waits for a lock then loses its session, and with it the locks it held,
    /// instead of keeping them until the wait ends. An older server does not know the setting; nothing changes there.
    private static func endSessionWhenClientDies(_ connection: PGConnection) throws {
        do {
            try connection.execute("SET client_connection_check_interval = 10000")
        } catch  where error.sqlState == "42704" {
            // unrecognized configuration parameter: a server before PostgreSQL 14.
        }
    }

    /// How psql (or `DATABASE_URL`) reaches this database, as `churn db url` prints it.
    ///
    /// A URL or conninfo given by `--database-url` or `DATABASE_URL` comes back exactly as given, password
    /// included, since a program connecting with it needs it. For the `PG*` variables it is what they (and the
    /// service they name) set, without the password: `PGPASSWORD` and `~/.pgpass` stay where psql reads them
    /// itself. For the embedded cluster it is the cluster's URI.
    /// - Important: it may hold a password: print it only where asked, never into a log or a message.
    package var connectionString: String {
        switch self {
        case .url(let url): return url
        case .libpqEnvironment: return PGConnection.environmentConninfo()
        case .embedded(let cluster): return cluster.uri
        }
    }

    /// A description for messages (never a password).
    package var summary: String {
        switch self {
        case .url: return "the server in --database-url/DATABASE_URL"
        case .libpqEnvironment: return "the server in the PG* environment variables"
        case .embedded(let cluster): return "the embedded cluster in \(cluster.home.path)"
        }
    }
}
