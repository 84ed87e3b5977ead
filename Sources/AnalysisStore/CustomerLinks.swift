import Analysis
import PGClient
import Store

/// Joins an environment's subscriptions into customers (METRICS.md v2.1, "Customers who come back"): subscriptions
/// sharing a key of `subscription_links` (an `appTransactionId`, a non-empty `appAccountToken`) are one customer, and
/// so are a subscription and the one it continues after a migration (its `subscription:<id>` key), transitively. Its id is the smallest original
/// transaction id among its subscriptions (in byte order); a subscription sharing no key is a customer of its own and
/// gets no row.
///
/// The same statements link the customers the analysis stores (`subscription_customers`, after every rebuild, since
/// a new notification can join two customers) and those of a report or query as of an earlier time (the keys known
/// then, into the session's temporary table `churn_customers`). Only keys held by two subscriptions or more take
/// part; the smallest id then spreads over the shared keys until nothing changes, one hop per round. The rule is
/// stated in Swift in `CustomerRule.customers(_:asOf:)`, which a test holds these statements to.
package struct CustomerLinks {
    let connection: PGConnection

    package init(connection: PGConnection) {
        self.connection = connection
    }

    /// The session's temporary table of customers as of an earlier time.
    package static let asOfTable = "churn_customers"

    /// Replaces the stored customers of `environment` (in the caller's transaction).
    /// - Returns: the subscriptions linked to another.
    @discardableResult
    package func store(environment: String) throws -> Int {
        try label(environment: environment, asOf: nil)
        try connection.execute("DELETE FROM subscription_customers WHERE environment = $1", [environment])
        return try connection.execute(
            """
            INSERT INTO subscription_customers (environment, original_transaction_id, customer_id)
            SELECT $1, original_transaction_id, customer_id FROM churn_labels
            """,
            [environment]
        ).affectedRows
    }

    /// Relinks the stored customers of `environment` where the subscriptions in the session's temporary table
    /// `churn_touched`, just rebuilt in the caller's transaction, can have changed them; the result equals
    /// ``store(environment:)``.
    ///
    /// Keys only change with a subscription's own notifications, so a customer can change only where a touched
    /// subscription is: the relinked subscriptions are the touched ones, those holding a key a touched one holds
    /// (its `subscription:<id>` key included, and the subscription a touched one's `subscription:<id>` key names),
    /// and every subscription of the customers all of them belonged to before. No key of one of those is shared
    /// with a subscription outside (a key shared before joined both into one customer; a key shared now but not
    /// before is a touched one's), so the spread over their keys alone links them as over every key.
    /// - Returns: the subscriptions linked to another, in the whole environment.
    @discardableResult
    package func storeTouched(environment: String) throws -> Int {
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS churn_relinked (original_transaction_id text PRIMARY KEY)")
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS churn_touched_links (link text NOT NULL)")
        try connection.execute("TRUNCATE churn_relinked, churn_touched_links")
        // The touched subscriptions' keys, and the `subscription:<id>` key each can be named by: a few, found by
        // subscription, so that the environment's keys are scanned once, against them.
        try connection.execute(
            """
            INSERT INTO churn_touched_links
            SELECT l.link FROM churn_touched c
            JOIN subscription_links l ON l.environment = $1 AND l.original_transaction_id = c.original_transaction_id
            UNION
            SELECT 'subscription:' || original_transaction_id FROM churn_touched
            """,
            [environment]
        )
        try connection.execute("ANALYZE churn_touched_links")
        try connection.execute(
            """
            INSERT INTO churn_relinked
            SELECT original_transaction_id FROM churn_touched
            UNION
            SELECT l.original_transaction_id FROM churn_touched_links t
            -- OFFSET 0 keeps the subquery a lookup of each key in the index on the keys, which is what the few keys
            -- of one night need; joined plainly, the planner reads every key of the environment instead.
            CROSS JOIN LATERAL (
                SELECT l.original_transaction_id FROM subscription_links l
                WHERE l.environment = $1 AND l.link = t.link OFFSET 0
            ) l
            UNION
            SELECT substr(link, length('subscription:') + 1) FROM churn_touched_links WHERE link LIKE 'subscription:%'
            """,
            [environment]
        )
        try connection.execute(
            """
            INSERT INTO churn_relinked
            SELECT s.original_transaction_id FROM subscription_customers s
            WHERE s.environment = $1 AND s.customer_id IN (
                SELECT x.customer_id FROM subscription_customers x
                JOIN churn_relinked r ON r.original_transaction_id = x.original_transaction_id
                WHERE x.environment = $1)
            ON CONFLICT DO NOTHING
            """,
            [environment]
        )
        try connection.execute("ANALYZE churn_relinked")
        try label(environment: environment, asOf: nil, within: "churn_relinked")
        try connection.execute(
            """
            DELETE FROM subscription_customers s USING churn_relinked r
            WHERE s.environment = $1 AND s.original_transaction_id = r.original_transaction_id
            """,
            [environment]
        )
        try connection.execute(
            """
            INSERT INTO subscription_customers (environment, original_transaction_id, customer_id)
            SELECT $1, original_transaction_id, customer_id FROM churn_labels
            """,
            [environment]
        )
        let count = try connection.execute(
            "SELECT count(*) FROM subscription_customers WHERE environment = $1", [environment]
        ).scalar
        return count.flatMap { Int($0) } ?? 0
    }

    /// Links the customers of `environment` by the keys first signed by `asOf` (Unix ms) into ``asOfTable``.
    package func link(environment: String, asOf: Int64) throws {
        try label(environment: environment, asOf: asOf)
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS \(Self.asOfTable) (
                original_transaction_id text PRIMARY KEY, customer_id text NOT NULL)
            """)
        try connection.execute("CREATE INDEX IF NOT EXISTS churn_customers_customer ON \(Self.asOfTable) (customer_id)")
        try connection.execute("TRUNCATE \(Self.asOfTable)")
        try connection.execute(
            "INSERT INTO \(Self.asOfTable) SELECT original_transaction_id, customer_id FROM churn_labels")
        try connection.execute("ANALYZE \(Self.asOfTable)")
    }

    /// Labels every subscription that shares a key with the smallest original transaction id it is linked to, in
    /// the session's temporary table `churn_labels`.
    /// - Parameter within: a temporary table of the only subscriptions whose keys count (one no key links to a
    ///   subscription outside it); nil for all.
    private func label(environment: String, asOf: Int64?, within: String? = nil) throws {
        func cutoff(_ column: String) -> String {
            asOf.map { "AND \(column) <= 'epoch'::timestamptz + \($0) * interval '1 millisecond'" } ?? ""
        }
        func scope(_ subscription: String) -> String {
            within.map { "AND \(subscription) IN (SELECT original_transaction_id FROM \($0))" } ?? ""
        }
        // The `subscription:<id>` keys naming a subscription within, found by value (the index on the keys)
        // rather than by reading every such key of the environment.
        func scopeNamed(_ link: String) -> String {
            within.map { "AND \(link) IN (SELECT 'subscription:' || original_transaction_id FROM \($0))" } ?? ""
        }
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS churn_shared_links (original_transaction_id text NOT NULL, link text NOT NULL)"
        )
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS churn_labels (
                original_transaction_id text PRIMARY KEY, customer_id text COLLATE "C" NOT NULL)
            """)
        try connection.execute("TRUNCATE churn_shared_links, churn_labels")
        // asOf is an integer formatted here, never text from outside. A subscription continued after a migration holds
        // `subscription:<its id>` as a key of its own, when it has a notification that counts by then.
        try connection.execute(
            """
            INSERT INTO churn_shared_links
            WITH keys AS (
                SELECT original_transaction_id, link FROM subscription_links
                WHERE environment = $1 \(cutoff("first_signed")) \(scope("original_transaction_id"))
                UNION ALL
                SELECT DISTINCT substr(l.link, length('subscription:') + 1), l.link FROM subscription_links l
                WHERE l.environment = $1 AND l.link LIKE 'subscription:%' \(cutoff("l.first_signed"))
                  \(scopeNamed("l.link"))
                  AND EXISTS (
                      SELECT 1 FROM notifications n
                      WHERE n.original_transaction_id = substr(l.link, length('subscription:') + 1)
                        AND n.environment = $1 AND n.in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED'
                        \(cutoff("n.signed_date")))
            )
            SELECT k.original_transaction_id, k.link
            FROM keys k JOIN (SELECT link FROM keys GROUP BY link HAVING count(*) > 1) shared ON shared.link = k.link
            """,
            [environment]
        )
        try connection.execute(
            """
            INSERT INTO churn_labels
            SELECT DISTINCT original_transaction_id, original_transaction_id FROM churn_shared_links
            """)
        try connection.execute("ANALYZE churn_shared_links, churn_labels")
        while true {
            let changed = try connection.execute(
                """
                UPDATE churn_labels c SET customer_id = spread.customer_id
                FROM (SELECT k.original_transaction_id, min(byLink.customer_id) AS customer_id
                      FROM churn_shared_links k
                      JOIN (SELECT k2.link, min(c2.customer_id) AS customer_id
                            FROM churn_shared_links k2
                            JOIN churn_labels c2 ON c2.original_transaction_id = k2.original_transaction_id
                            GROUP BY k2.link) byLink ON byLink.link = k.link
                      GROUP BY k.original_transaction_id) spread
                WHERE spread.original_transaction_id = c.original_transaction_id
                  AND spread.customer_id < c.customer_id
                """
            ).affectedRows
            if changed == 0 { break }
        }
    }
}
