import Analysis
import PGClient

/// Selects the episodes an ad-hoc question is about (`churn query`): the stored episodes of one environment that
/// pass an ``EpisodeFilter``, read with one parameterized statement, or episodes built afresh for an earlier
/// as-of time and filtered in memory.
///
/// - Important: every filter value is bound as a parameter (`$1`, `$2`, …); the statement's text holds only
///   column names and operators from this file.
package struct EpisodeQuery {
    package var environment: String
    package var filter: EpisodeFilter

    /// Rows fetched per round trip from the server-side cursor.
    static let batchSize = 10_000

    package init(environment: String, filter: EpisodeFilter = EpisodeFilter()) {
        self.environment = environment
        self.filter = filter
    }

    /// The SELECT over `billing_episodes` and its parameters, in the order of `$1`, `$2`, ….
    package var statement: (sql: String, parameters: [any PGParameter]) {
        func anyOf(_ column: String, _ values: [String]) -> PGQuery {
            let list = PGQuery(joining: values.map { value -> PGQuery in "\(bind: value)" }, separator: ", ")
            return "coalesce(\(sql: column), '') IN (\(query: list))"
        }
        var conditions: [PGQuery] = ["environment = \(bind: environment)"]
        if !filter.bundleIds.isEmpty { conditions.append(anyOf("bundle_id", filter.bundleIds)) }
        if !filter.productIds.isEmpty { conditions.append(anyOf("product_id", filter.productIds)) }
        if !filter.storefronts.isEmpty { conditions.append(anyOf("storefront", filter.storefronts)) }
        if let from = filter.startFrom {
            if PGTimestamp.isInRange(milliseconds: from) {
                conditions.append("start_at >= \(bind: PGInstant(milliseconds: from))")
            } else if from > 0 {
                conditions.append("false")  // after the year 9999: nothing starts that late
            }
        }
        if let before = filter.startBefore {
            if PGTimestamp.isInRange(milliseconds: before) {
                conditions.append("start_at < \(bind: PGInstant(milliseconds: before))")
            } else if before < 0 {
                conditions.append("false")  // before the year 1: nothing starts that early
            }
        }
        if let isTrialConversion = filter.isTrialConversion {
            conditions.append("trial_conversion = \(bind: isTrialConversion)")
        }
        if let isFirstEpisode = filter.isFirstEpisode {
            conditions.append(isFirstEpisode ? "sequence = 1" : "sequence <> 1")
        }
        let query: PGQuery = """
            SELECT \(sql: StoredEpisodeColumns.episode.selectList)
            FROM billing_episodes
            WHERE \(query: PGQuery(joining: conditions, separator: " AND "))
            ORDER BY \(sql: StoredEpisodeColumns.orderBy)
            """
        return (query.sql, query.parameters)
    }

    /// Passes each stored episode that passes the filter to `body`, in the stored order, as ``EpisodeAnalyzer`` last
    /// built them: as the notifications say, with inferred grace ends, and open however old.
    ///
    /// Rows come through a server-side cursor in batches, so the rows in flight stay few however many match, and no
    /// episode is kept.
    package func forEachStoredEpisode(_ connection: PGConnection, _ body: (Episode) throws -> Void) throws {
        let (sql, parameters) = statement
        func read() throws {
            try connection.execute("DECLARE churn_episode_query NO SCROLL CURSOR FOR \(sql)", parameters)
            while true {
                let rows = try connection.execute("FETCH FORWARD \(Self.batchSize) FROM churn_episode_query").rows
                if rows.isEmpty { break }
                for row in rows {
                    try body(try StoredEpisodeColumns.episode.episode(row, environment: environment))
                }
            }
            try connection.execute("CLOSE churn_episode_query")
        }
        // A cursor lives in a transaction: the caller's, or one of its own.
        if connection.isInTransaction {
            try read()
        } else {
            try connection.withTransaction(read)
        }
    }

    /// The time a question is asked as of, and where its episodes come from.
    package struct Scope: Sendable {
        /// Unix ms.
        package let asOf: Int64
        /// The latest `signedDate` loaded (Unix ms), which the scope was judged against.
        package let latestSignedDate: Int64
        /// Whether the stored episodes serve (at or after the latest `signedDate` loaded), rather than episodes
        /// built afresh from the notifications signed by `asOf`.
        var readsStoredEpisodes: Bool { asOf >= latestSignedDate }
    }

    /// The scope of a question as of `asOf` (Unix ms; nil for the latest `signedDate` loaded), or nil when nothing
    /// is loaded.
    package func scope(asOf: Int64?, connection: PGConnection) throws -> Scope? {
        guard let latest = try StoredDataset(connection: connection).latestSignedDate() else { return nil }
        let asOfTime = asOf ?? latest
        return Scope(asOf: asOfTime, latestSignedDate: latest)
    }

    /// Passes each episode in `scope` that passes the filter to `body`.
    ///
    /// As of the latest `signedDate` loaded (or later), the stored episodes stream from the database, selected in
    /// SQL. For an earlier time they are built afresh from the notifications signed by then, as `churn report
    /// --as-of` builds them (``StoredDataset/streamBuilt(environment:asOf:reader:_:)``), and filtered as they come.
    /// Either way none is kept.
    /// - Parameters:
    ///   - connection: the connection to read stored episodes with.
    ///   - reader: a second connection, used to stream notifications when building afresh.
    package func forEachEpisode(
        in scope: Scope,
        connection: PGConnection,
        reader: PGConnection,
        _ body: (Episode) throws -> Void
    ) throws {
        _ = try stream(in: scope, connection: connection, reader: reader, readsGraceLengths: false, body)
    }

    /// ``forEachEpisode(in:connection:reader:_:)``, and the usual grace lengths of every episode of the environment
    /// in `scope`, filtered out or not: the lengths that dated its grace periods (``GraceLengths``).
    ///
    /// Stored episodes and their lengths are read in one snapshot.
    /// - Returns: the usual grace lengths.
    package func forEachEpisodeWithGraceLengths(
        in scope: Scope,
        connection: PGConnection,
        reader: PGConnection,
        _ body: (Episode) throws -> Void
    ) throws -> GraceLengths {
        try stream(in: scope, connection: connection, reader: reader, readsGraceLengths: true, body)
    }

    /// Streams the episodes; with `readsGraceLengths` false the lengths are only those of the episodes built
    /// afresh (none for stored episodes).
    private func stream(
        in scope: Scope,
        connection: PGConnection,
        reader: PGConnection,
        readsGraceLengths: Bool,
        _ body: (Episode) throws -> Void
    ) throws -> GraceLengths {
        var graceLengths = GraceLengths(observedIn: [])
        guard !scope.readsStoredEpisodes else {
            // The stored episodes hold the grace ends inferred over every episode of the environment (the filter
            // must not change them); only the retry window depends on the as-of time.
            func read() throws {
                if readsGraceLengths {
                    graceLengths = try GraceLengths.stored(environment: environment, connection: connection)
                }
                try forEachStoredEpisode(connection) { stored in
                    var episode = stored
                    episode.closeRetryWindow(asOf: scope.asOf)
                    try body(episode)
                }
            }
            if !readsGraceLengths || connection.isInTransaction {
                try read()
            } else {
                try connection.withTransaction {
                    try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    try read()
                }
            }
            return graceLengths
        }
        _ = try StoredDataset(connection: connection).streamBuilt(
            environment: environment, asOf: scope.asOf, reader: reader
        ) { episode in
            // Every episode built dates grace periods, the filtered-out ones too.
            graceLengths.observe(episode)
            if filter.matches(episode) { try body(episode) }
        }
        return graceLengths
    }
}
