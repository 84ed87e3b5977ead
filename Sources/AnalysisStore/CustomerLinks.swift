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
/// part; the smallest id then spreads over the shared keys until nothing changes, one hop per round.
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

    /// Links the customers of `environment` by the keys first signed by `asOf` (Unix ms) into ``asOfTable``.
    package func link(environment: String, asOf: Int64) throws {
        try label(environment: environment, asOf: asOf)
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS \(Self.asOfTable) (
                original_transaction_id text PRIMARY KEY, customer_id text NOT NULL)
            """)
        try connection.execute("TRUNCATE \(Self.asOfTable)")
        try connection.execute(
            "INSERT INTO \(Self.asOfTable) SELECT original_transaction_id, customer_id FROM churn_labels")
        try connection.execute("ANALYZE \(Self.asOfTable)")
    }

    /// Labels every subscription that shares a key with the smallest original transaction id it is linked to, in
    /// the session's temporary table `churn_labels`.
    private func label(environment: String, asOf: Int64?) throws {
        func cutoff(_ column: String) -> String {
            asOf.map { "AND \(column) <= 'epoch'::timestamptz + \($0) * interval '1 millisecond'" } ?? ""
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
                WHERE environment = $1 \(cutoff("first_signed"))
                UNION ALL
                SELECT DISTINCT substr(l.link, length('subscription:') + 1), l.link FROM subscription_links l
                WHERE l.environment = $1 AND l.link LIKE 'subscription:%' \(cutoff("l.first_signed"))
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
