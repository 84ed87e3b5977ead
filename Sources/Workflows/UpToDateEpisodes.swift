import AnalysisStore
import EmbeddedPostgres
import Logging
import PGClient

/// The stored episodes of one environment brought up to date, and the as-of time a reading command answers for:
/// what `churn report` and the environment-wide questions of `churn query` start from.
struct UpToDateEpisodes {
    let writer: PGConnection
    /// Streams notifications, for episodes built afresh.
    let reader: PGConnection
    let store: StoredDataset
    /// The latest `signedDate` loaded (Unix ms).
    let latest: Int64
    /// The as-of time asked for, else ``latest``.
    let asOf: Int64

    /// Connects without creating a cluster or a schema, brings `environment`'s episodes up to date and checks the
    /// as-of time against the latest notification.
    /// - Throws: ``WorkflowError/nothingLoaded(database:)``, ``WorkflowError/asOfAfterData(asOf:latest:)``,
    ///   ``WorkflowError/asOfBeforeData(asOf:earliest:)``;
    ///   `PGError`, `EmbeddedClusterError`.
    init(target: DatabaseTarget, environment: String, asOf: Int64?, logger: Logger) throws {
        writer = try target.connectToStored(logger: logger)
        reader = try target.connect(logger: logger)
        try Self.analyzeUnlessReadOnly(writer: writer, reader: reader, environment: environment, logger: logger)
        store = StoredDataset(connection: writer)
        guard let latest = try store.latestSignedDate() else {
            throw WorkflowError.nothingLoaded(database: writer.target)
        }
        self.latest = latest
        self.asOf = asOf ?? latest
        try AsOfCheck.check(asOf: self.asOf, latest: latest, store: store, logger: logger)
    }

    /// Brings `environment`'s stored episodes up to date with every committed load, unless the connection is
    /// read-only (a replica): the answer then comes from the episodes the last analysis stored, and a warning says so.
    static func analyzeUnlessReadOnly(
        writer: PGConnection, reader: PGConnection, environment: String, logger: Logger
    ) throws {
        guard try !writer.isReadOnly() else {
            logger.warning(
                "read-only connection (a replica?): answering from the episodes the last analysis stored; loads since then are not in them until `churn analyze` runs against the primary"
            )
            return
        }
        try EpisodeAnalyzer(writer: writer, reader: reader, logger: logger).analyze(environment: environment)
    }

    /// Where the episodes as of ``asOf`` come from.
    var source: ReportWriting.Episodes {
        ReportWriting.Episodes(asOf: asOf, latest: latest)
    }
}
