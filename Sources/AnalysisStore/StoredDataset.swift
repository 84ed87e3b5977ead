import Analysis
import PGClient

/// Reads what reports need from the database: the stored episodes (as of the latest data) or episodes built
/// afresh as of an earlier time, plus the counts that come from loading (rejections, duplicates).
package struct StoredDataset {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// The default as-of: the latest `signedDate` loaded (any environment), in Unix ms; nil when nothing is loaded.
    package func latestSignedDate() throws -> Int64? {
        try signedDate(.latest)
    }

    /// The earliest `signedDate` loaded (Unix ms), of any environment; nil when nothing is loaded.
    package func earliestSignedDate() throws -> Int64? {
        try signedDate(.earliest)
    }

    private enum End: String {
        case earliest = "min"
        case latest = "max"
    }

    /// One end of the `signedDate`s loaded, read off the index on `signed_date`.
    private func signedDate(_ end: End) throws -> Int64? {
        try connection.execute(
            "SELECT (date_part('epoch', \(end.rawValue)(signed_date)) * 1000)::int8 FROM notifications"
        ).scalar.flatMap { Int64($0) }
    }

    /// Streams the episodes stored by ``EpisodeAnalyzer`` for `environment`, finished as of `asOf`, through `body`
    /// one at a time (by subscription and sequence), holding none of them, for a report that keeps only its
    /// figures. Exact when `asOf` is at or after the latest `signedDate` loaded (the stored episodes see every
    /// notification); for an earlier as-of use ``streamBuilt(environment:asOf:reader:_:)``.
    ///
    /// The stored episodes hold the grace ends the analysis inferred over every episode of the environment
    /// (``EpisodeAnalyzer``), so only the retry window depends on the as-of time, as for ``EpisodeQuery``. Every read
    /// is one snapshot (a read-only repeatable-read transaction).
    /// - Returns: the dataset's counts (data quality, renewals), with no episodes.
    package func streamStored(
        environment: String, asOf: Int64, _ body: (Episode) throws -> Void
    ) throws -> EpisodeDataset {
        try connection.withTransaction {
            try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            var dataset = EpisodeDataset(asOf: asOf)
            let columns = StoredEpisodeColumns.episode
            var fields = CopyTextRowReader()
            try connection.copyOut(
                """
                COPY (SELECT \(columns.selectList)
                      FROM billing_episodes WHERE environment = \(try literal(environment))
                      ORDER BY \(StoredEpisodeColumns.orderBy)) TO STDOUT
                """
            ) { row in
                fields.read(row)
                var episode = try columns.episode(fields, environment: environment)
                episode.closeRetryWindow(asOf: asOf)
                dataset.dataQuality.countInferences(of: episode)
                try body(episode)
            }
            try readCounts(environment: environment, into: &dataset)
            dataset.dataQuality.add(try loadQuality(environment: environment, asOf: asOf).counts)
            return dataset
        }
    }

    /// The counts of `environment` that come from analysis and loading: data quality and ordinary renewals.
    private func readCounts(environment: String, into dataset: inout EpisodeDataset) throws {
        let quality = try connection.execute(
            """
            SELECT coalesce(sum(outside_environment), 0) AS outside_environment,
                   coalesce(sum(family_shared_skipped), 0) AS family_shared_skipped,
                   coalesce(sum(orphan_did_renew_billing_recovery), 0) AS orphan_did_renew_billing_recovery,
                   coalesce(sum(orphan_expired_billing_retry), 0) AS orphan_expired_billing_retry,
                   coalesce(sum(orphan_grace_period_expired), 0) AS orphan_grace_period_expired,
                   coalesce(sum(stale_failure_notice), 0) AS stale_failure_notice,
                   coalesce(sum(late_failure_notice), 0) AS late_failure_notice
            FROM subscription_analysis WHERE environment = $1
            """,
            [environment]
        )
        if let row = quality.rows.first {
            func sum(_ column: String) throws -> Int { try row.decode(Int.self, try quality.field(column)) }
            dataset.dataQuality.outsideEnvironment = try sum("outside_environment")
            dataset.dataQuality.familySharedSkipped = try sum("family_shared_skipped")
            dataset.dataQuality.orphanDidRenewBillingRecovery = try sum("orphan_did_renew_billing_recovery")
            dataset.dataQuality.orphanExpiredBillingRetry = try sum("orphan_expired_billing_retry")
            dataset.dataQuality.orphanGracePeriodExpired = try sum("orphan_grace_period_expired")
            dataset.dataQuality.staleFailureNotice = try sum("stale_failure_notice")
            dataset.dataQuality.lateFailureNotice = try sum("late_failure_notice")
        }
        let renewals = try connection.execute(
            """
            SELECT (date_part('epoch', to_date(month, 'YYYY-MM')) * 1000)::int8 AS month_start, renewals
            FROM renewal_months WHERE environment = $1 ORDER BY month
            """,
            [environment]
        )
        let (monthStart, count) = (try renewals.field("month_start"), try renewals.field("renewals"))
        for row in renewals.rows {
            let start = try row.decode(Int64.self, monthStart)
            dataset.renewals.add(CalendarPeriod(.month, containing: start), count: try row.decode(Int.self, count))
        }
    }

    /// Streams the episodes built afresh from the notifications signed at or before `asOf`, finished, through `body`
    /// one at a time.
    ///
    /// An episode is finished as it is built, except a grace period without a date, which needs the usual grace
    /// lengths of every episode of the scope (``GraceLengths``): those few wait until the notifications are read to
    /// the end, and come last. So only they are held, and the episodes come in another order than the subscriptions'.
    /// - Returns: the dataset's counts (data quality, renewals), with no episodes.
    package func streamBuilt(
        environment: String,
        asOf: Int64,
        reader: PGConnection,
        _ body: (Episode) throws -> Void
    ) throws -> EpisodeDataset {
        var dataset = EpisodeDataset(asOf: asOf)
        var graceLengths = GraceLengths(observedIn: [])
        // What `EpisodeDataset.finish()` counts, counted as each episode is finished.
        var inferences = DataQualityCounts()
        var waiting: [Episode] = []
        func deliver(_ built: Episode) throws {
            var episode = built
            EpisodeDataset.finish(&episode, asOf: asOf, graceLengths: graceLengths)
            inferences.countInferences(of: episode)
            try body(episode)
        }
        try forEachSubscription(environment: environment, asOf: asOf, reader: reader) { result in
            graceLengths.observe(result.episodes)
            var counts = result
            counts.episodes = []
            dataset.add(counts)
            for episode in result.episodes {
                if GraceLengths.datesGraceEnd(of: episode) {
                    waiting.append(episode)
                } else {
                    try deliver(episode)
                }
            }
        }
        for episode in waiting { try deliver(episode) }
        dataset.dataQuality.inferredExpiry = inferences.inferredExpiry
        dataset.dataQuality.graceEndInferred = inferences.graceEndInferred
        dataset.dataQuality.graceEndUnknown = inferences.graceEndUnknown
        dataset.dataQuality.commitmentGrace = inferences.commitmentGrace
        dataset.dataQuality.add(try loadQuality(environment: environment, asOf: asOf).counts)
        return dataset
    }

    /// Builds each subscription's episodes from the notifications signed at or before `asOf`, and hands each
    /// subscription's results to `body` in turn.
    package func forEachSubscription(
        environment: String,
        asOf: Int64,
        reader: PGConnection,
        _ body: (SubscriptionEpisodes) throws -> Void
    ) throws {
        let proofs = try ProvenRecovery.stored(environment: environment, connection: reader)
        var stream = EpisodeStream(
            builder: EpisodeBuilder(
                options: .init(environment: environment, asOf: asOf, provenRecoveries: proofs)))
        try NotificationEventReader(connection: reader).read(.all(asOf: asOf)) { event in
            if let result = stream.add(event) { try body(result) }
        }
        if let result = stream.finish() { try body(result) }
    }

    /// What loading knows of a report of `environment` as of `asOf`, beyond the stored notifications: the copies
    /// signed by `asOf` (`duplicates_skipped`), the notifications a load's filters left out (`outside_environment`,
    /// `outside_bundle`), the refused inputs by reason (`rejected_<reason>`), and the checks against Apple's status
    /// (`apple_*`, every check recorded for the environment, whatever `asOf`).
    ///
    /// Only settled files' copies count (as in the analysis, ``EpisodeAnalyzer``), and only refusals no later load
    /// resolved. A refusal whose notification was decoded counts when it was signed by `asOf`, once per
    /// notification when a filter left it out; one that was never decoded (not JSON, a bad token) has no date and
    /// counts in every report. A notification of the report's environment that a load's `--environment` left out is
    /// missing from the report, and stays `rejected_wrong_environment`.
    package func loadQuality(environment: String, asOf: Int64) throws -> (
        counts: DataQualityCounts, rejections: [String: Int]
    ) {
        let asOfTime = PGInstant(milliseconds: asOf)
        var counts = DataQualityCounts()
        counts.duplicatesSkipped =
            try connection.execute(
                """
                SELECT count(*) FROM notification_copies c
                JOIN source_files f ON f.id = c.source_file_id JOIN load_runs r ON r.id = f.load_run_id
                WHERE c.signed_date <= $1 AND (f.sha256 <> '' OR r.status <> 'running')
                """,
                [asOfTime]
            ).scalar.flatMap { Int($0) } ?? 0
        var rejections: [String: Int] = [:]
        let result = try connection.execute(
            """
            SELECT reason, coalesce(environment = $2, false) AS in_environment,
                   count(*) FILTER (WHERE notification_uuid IS NULL) + count(DISTINCT notification_uuid)
                       AS notifications,
                   count(*) AS inputs
            FROM quarantine
            WHERE resolved_by_run IS NULL AND (signed_date IS NULL OR signed_date <= $1)
            GROUP BY 1, 2
            """,
            [asOfTime, environment]
        )
        let fields = (
            reason: try result.field("reason"), inEnvironment: try result.field("in_environment"),
            notifications: try result.field("notifications"), inputs: try result.field("inputs")
        )
        for row in result.rows {
            let reason = try row.decode(String.self, fields.reason)
            let inEnvironment = try row.decode(Bool.self, fields.inEnvironment)
            let notifications = try row.decode(Int.self, fields.notifications)
            let inputs = try row.decode(Int.self, fields.inputs)
            // The reasons of the load's filters (Ingest's `Rejection.Reason`).
            switch reason {
            case "wrong_environment" where !inEnvironment, "wrong_bundle_id" where !inEnvironment:
                counts.outsideEnvironment += notifications
            case "wrong_bundle_id":
                counts.outsideBundle += notifications
            case "wrong_environment":
                rejections[reason, default: 0] += notifications
            default:
                rejections[reason, default: 0] += inputs
            }
        }
        // The checks against Apple's status (`churn repair`), all those recorded for the environment, each in one of
        // agrees, differs and failed: a status that differs but whose history Apple refused (state `failed`) is a
        // failed check, not one that differs.
        let checks = try connection.execute(
            """
            SELECT count(*) FILTER (WHERE verdict = 'agrees') AS agrees,
                   count(*) FILTER (WHERE verdict = 'differs' AND state <> 'failed') AS differs,
                   count(*) FILTER (WHERE verdict = 'differs' AND state = 'done') AS history_fetched,
                   count(*) FILTER (WHERE verdict IN ('not_found', 'unverified', 'refused') OR state = 'failed')
                       AS failed,
                   count(*) FILTER (WHERE proof_transaction_id IS NOT NULL) AS recovery_proven
            FROM subscription_checks WHERE environment = $1
            """,
            [environment]
        )
        if let row = checks.rows.first {
            func count(_ column: String) throws -> Int { try row.decode(Int.self, try checks.field(column)) }
            counts.appleStatusAgrees = try count("agrees")
            counts.appleStatusDiffers = try count("differs")
            counts.appleHistoryFetched = try count("history_fetched")
            counts.appleCheckFailed = try count("failed")
            counts.appleRecoveryProven = try count("recovery_proven")
        }
        return (counts, rejections)
    }

    /// The identity of this database (`database_identity.id`), which each report records so that it compares only
    /// with reports of the same database; nil when the table holds no row.
    package func databaseID() throws -> String? {
        try connection.execute("SELECT id::text FROM database_identity").scalar
    }

    /// A string literal for COPY (which takes no parameters), quoted by libpq's rules.
    private func literal(_ text: String) throws -> String {
        try connection.quoteLiteral(text)
    }
}
