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
}
