import EmbeddedPostgres
import Foundation
import Logging
import PGClient
import Store

extension DatabaseTarget {
    /// Connects to the database and brings its schema up to date.
    /// - Throws: `PGError`, `EmbeddedClusterError`.
    package func connectMigrated(logger: Logger) throws -> PGConnection {
        let connection = try connect(logger: logger)
        try Migrator(logger: logger).migrate(connection)
        return connection
    }

    /// Connects for a command that reads what loads stored (`report`, `query`, `quarantine`): it never creates the
    /// embedded cluster or a schema, so a read in the wrong directory or against the wrong database says so and
    /// leaves nothing behind. An existing schema is brought up to date, as every command does.
    /// - Throws: ``WorkflowError/nothingLoaded(database:)`` naming the database when there is no cluster or no
    ///   schema; `PGError`, `EmbeddedClusterError`.
    package func connectToStored(logger: Logger) throws -> PGConnection {
        if case .embedded(let cluster) = self, try cluster.status() == .notInitialized {
            throw WorkflowError.nothingLoaded(
                database: "the embedded cluster in \(cluster.home.path), which does not exist")
        }
        let connection = try connect(logger: logger)
        guard try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").scalar == "t" else {
            throw WorkflowError.nothingLoaded(database: connection.target)
        }
        try Migrator(logger: logger).migrate(connection)
        return connection
    }
}
