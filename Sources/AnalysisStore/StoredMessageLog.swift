import Analysis
import PGClient

extension StoredDataset {
    /// The app's message log as a report of `environment` as of `asOf` reads it (``MessageLog``): the stored events
    /// up to `asOf`, the bundle id of each of the environment's subscriptions an event names, by its id or through a
    /// token, and those subscriptions' token sightings signed by `asOf`. Nil when no event is stored by then.
    package func messageLog(environment: String, asOf: Int64) throws -> MessageLog? {
        let asOfTime = PGInstant(milliseconds: asOf)
        let result = try connection.execute(
            """
            SELECT original_transaction_id, app_account_token, (date_part('epoch', at) * 1000)::int8 AS at_ms, action,
                   arm
            FROM message_events WHERE at <= $1 ORDER BY at, id
            """,
            [asOfTime]
        )
        guard !result.rows.isEmpty else { return nil }
        let fields = (
            id: try result.field("original_transaction_id"), token: try result.field("app_account_token"),
            at: try result.field("at_ms"), action: try result.field("action"), arm: try result.field("arm")
        )
        var events: [MessageEvent] = []
        events.reserveCapacity(result.rows.count)
        for row in result.rows {
            let action = try row.decode(String.self, fields.action)
            guard let known = MessageEvent.Action(rawValue: action) else {
                throw PGError(kind: .unexpectedResult, message: "message_events.action holds \(action)")
            }
            events.append(
                MessageEvent(
                    originalTransactionId: try row.decode(String?.self, fields.id),
                    appAccountToken: try row.decode(String?.self, fields.token),
                    at: try row.decode(Int64.self, fields.at),
                    action: known, arm: try row.decode(String?.self, fields.arm)))
        }

        // The environment's subscriptions that events name, by id, and those that ever held a token of the log,
        // with every token sighting of the latter: a later token replaces an earlier one.
        let ids = Set(events.compactMap(\.originalTransactionId))
        let tokens = Set(events.compactMap(\.appAccountToken))
        var apps: [String: String] = [:]
        let named = try connection.execute(
            """
            SELECT DISTINCT ON (original_transaction_id) original_transaction_id, coalesce(bundle_id, '') AS bundle_id
            FROM notifications
            WHERE environment = $1 AND original_transaction_id = ANY($2) AND signed_date <= $3
            ORDER BY original_transaction_id, signed_date DESC
            """,
            [environment, PGArray.texts(ids.sorted()), asOfTime]
        )
        let (subscription, bundle) = (try named.field("original_transaction_id"), try named.field("bundle_id"))
        for row in named.rows {
            apps[try row.decode(String.self, subscription)] = try row.decode(String.self, bundle)
        }
        var sightings: [MessageLog.TokenSighting] = []
        if !tokens.isEmpty {
            let seen = try connection.execute(
                """
                SELECT n.original_transaction_id, lower(n.app_account_token) AS token,
                       (date_part('epoch', n.signed_date) * 1000)::int8 AS signed_ms,
                       coalesce(n.bundle_id, '') AS bundle_id
                FROM notifications n
                WHERE n.environment = $1 AND n.app_account_token IS NOT NULL AND n.signed_date <= $3
                  AND n.original_transaction_id IN (
                      SELECT original_transaction_id FROM notifications
                      WHERE environment = $1 AND lower(app_account_token) = ANY($2) AND signed_date <= $3
                  )
                ORDER BY n.original_transaction_id, n.signed_date
                """,
                [environment, PGArray.texts(tokens.sorted()), asOfTime]
            )
            let fields = (
                subscription: try seen.field("original_transaction_id"), token: try seen.field("token"),
                signed: try seen.field("signed_ms"), bundle: try seen.field("bundle_id")
            )
            for row in seen.rows {
                let id = try row.decode(String.self, fields.subscription)
                let token = try row.decode(String.self, fields.token)
                sightings.append(
                    MessageLog.TokenSighting(
                        subscription: id, token: MessageEvent.token(token) ?? token,
                        signedDate: try row.decode(Int64.self, fields.signed)))
                // A subscription found through a token takes the bundle id of its latest notification with a token
                // (the rows come by time), as one named by id takes its latest notification's.
                if !ids.contains(id) { apps[id] = try row.decode(String.self, fields.bundle) }
            }
        }
        return MessageLog(events: events, apps: apps, sightings: sightings)
    }
}
