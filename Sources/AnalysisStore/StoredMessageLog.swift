import Analysis
import PGClient
import Store

extension StoredDataset {
    /// The app's message log as a report of `environment` as of `asOf` reads it (``MessageLog``): the stored events
    /// up to `asOf`, the bundle id of each of the environment's subscriptions an event names, by its id or through a
    /// token, and those subscriptions' token sightings signed by `asOf`. Nil when no event is stored by then.
    ///
    /// Each of the three is read as a stream (`COPY … TO STDOUT`), and each event is linked as it comes
    /// (``MessageLog/Linker``): the log's text is never held whole.
    package func messageLog(environment: String, asOf: Int64) throws -> MessageLog? {
        // How many events there are by then, and how many name a subscription each way: a report without a log, or
        // with one that names no token, reads nothing more than it needs.
        let counts = try connection.execute(
            """
            SELECT count(*) AS events, count(original_transaction_id) AS by_id, count(app_account_token) AS by_token
            FROM message_events WHERE at <= $1
            """,
            [PGInstant(milliseconds: asOf)]
        )
        guard let row = counts.rows.first else { return nil }
        let (total, byID, byToken) = (
            try row.decode(Int.self, try counts.field("events")), try row.decode(Int.self, try counts.field("by_id")),
            try row.decode(Int.self, try counts.field("by_token"))
        )
        guard total > 0 else { return nil }
        // COPY takes no parameters: asOf is an integer formatted here, the environment a literal quoted by libpq.
        let cutoff = "'epoch'::timestamptz + \(asOf) * interval '1 millisecond'"
        let environmentLiteral = try connection.quoteLiteral(environment)
        var fields = CopyTextRowReader()

        // The environment's subscriptions that events name by id, each with its latest notification's bundle id
        // (one index probe per subscription, not a read of all their notifications).
        var apps: [String: String] = [:]
        var byIDSelection = PGSelection(Self.subscriptionAppTable)
        let namedSubscription = byIDSelection.add("original_transaction_id")
        let namedBundle = byIDSelection.add("bundle_id")
        if byID > 0 {
            try connection.copyOut(
                """
                COPY (SELECT \(byIDSelection.list) FROM (
                    SELECT s.original_transaction_id, latest.bundle_id
                    FROM (SELECT DISTINCT original_transaction_id FROM message_events
                          WHERE original_transaction_id IS NOT NULL AND at <= \(cutoff)) s
                    CROSS JOIN LATERAL (
                        SELECT coalesce(n.bundle_id, '') AS bundle_id FROM notifications n
                        WHERE n.original_transaction_id = s.original_transaction_id
                          AND n.environment = \(environmentLiteral) AND n.signed_date <= \(cutoff)
                        ORDER BY n.signed_date DESC LIMIT 1
                    ) latest
                ) subscription_app) TO STDOUT
                """
            ) { row in
                fields.read(row)
                apps[try fields.decode(String.self, namedSubscription)] = try fields.decode(String.self, namedBundle)
            }
        }
        let named = apps

        // The environment's subscriptions that ever held a token of the log, with every token sighting of theirs (a
        // later token replaces an earlier one), by time. A token compares as a UUID in any case, as the linking does
        // (``MessageEvent/token(_:)``): the holders are found by the lowercase token, in one pass over the
        // notifications with a token, and each holder's notifications then come along the subscriptions' index.
        var sightings: [MessageLog.TokenSighting] = []
        if byToken > 0 {
            var seen = PGSelection(StoredTables.notifications, qualifier: "n")
            let seenSubscription = seen.add("original_transaction_id", expression: "h.original_transaction_id")
            let seenToken = seen.add("app_account_token", expression: "lower(n.app_account_token)")
            let seenSigned = seen.add("signed_date")
            let seenBundle = seen.add("bundle_id", expression: "coalesce(n.bundle_id, '')")
            try connection.copyOut(
                """
                COPY (WITH tokens AS MATERIALIZED (
                          SELECT DISTINCT app_account_token AS token FROM message_events
                          WHERE app_account_token IS NOT NULL AND at <= \(cutoff)
                      ), holders AS MATERIALIZED (
                          SELECT DISTINCT n.original_transaction_id
                          FROM notifications n JOIN tokens t ON lower(n.app_account_token) = t.token
                          WHERE n.environment = \(environmentLiteral) AND n.signed_date <= \(cutoff)
                            AND n.app_account_token IS NOT NULL
                      )
                      SELECT \(seen.list)
                      FROM holders h CROSS JOIN LATERAL (
                          SELECT * FROM notifications n
                          WHERE n.original_transaction_id = h.original_transaction_id
                            AND n.environment = \(environmentLiteral) AND n.app_account_token IS NOT NULL
                            AND n.signed_date <= \(cutoff)
                      ) n
                      ORDER BY h.original_transaction_id, n.signed_date) TO STDOUT
                """
            ) { row in
                fields.read(row)
                let id = try fields.decode(String.self, seenSubscription)
                let token = try fields.decode(String.self, seenToken)
                sightings.append(
                    MessageLog.TokenSighting(
                        subscription: id, token: MessageEvent.token(token) ?? token,
                        signedDate: try fields.decode(Int64.self, seenSigned)))
                // A subscription found through a token takes the bundle id of its latest notification with a token
                // (the rows come by time), as one named by id takes its latest notification's.
                if named[id] == nil { apps[id] = try fields.decode(String.self, seenBundle) }
            }
        }

        // The events, by time (then by the order stored), each linked as it comes.
        var linker = MessageLog.Linker(apps: apps, sightings: sightings)
        var events = PGSelection(StoredTables.messageEvents)
        let id = events.add("original_transaction_id")
        let token = events.add("app_account_token")
        let at = events.add("at")
        let action = events.add("action")
        let arm = events.add("arm")
        try connection.copyOut(
            "COPY (SELECT \(events.list) FROM message_events WHERE at <= \(cutoff) ORDER BY at, id) TO STDOUT"
        ) { row in
            fields.read(row)
            let text = try fields.decode(String.self, action)
            guard let known = MessageEvent.Action(rawValue: text) else {
                throw PGError(kind: .unexpectedResult, message: "message_events.action holds \(text)")
            }
            linker.add(
                MessageEvent(
                    originalTransactionId: try fields.decode(String?.self, id),
                    appAccountToken: try fields.decode(String?.self, token), at: try fields.decode(Int64.self, at),
                    action: known, arm: try fields.decode(String?.self, arm)))
        }
        return linker.log()
    }

    /// What the bundle-id query gives for each subscription an event names (a result, not a stored table).
    private static let subscriptionAppTable = PGTable(
        "subscription_app", ["original_transaction_id": .text, "bundle_id": .text])
}
