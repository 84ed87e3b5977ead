import Analysis
import PGClient
import Store

/// Finds the return of each expired episode (METRICS.md v2.1, "Customers who come back"): the earliest
/// `purchaseDate` after the episode's end of a `SUBSCRIBED` or `OFFER_REDEEMED` notification of the same customer
/// (any of its subscriptions, in the episode's app), signed by the as-of time.
///
/// A report collects its expired episodes while they stream (``add(_:)``): they wait in a spool, memory then a
/// temporary file, and go to the server in one COPY, where one query finds every return, probing each customer's
/// purchases along their index. Nothing is held per episode but its row in the spool. The rule is stated in Swift in
/// `CustomerRule.returnedAt`, which a test holds this query to.
package struct CustomerReturns {
    private let spool = CopySpool()
    private var row = CopyText()
    /// Expired episodes collected.
    package private(set) var count = 0

    package init() {}

    /// Keeps `episode` when it expired (inferred expiries included), as finished for the report's as-of time.
    package mutating func add(_ episode: Episode) throws {
        guard episode.outcome == .expired, let end = episode.end else { return }
        row.removeAll()
        try row.append(episode.subscription)
        row.append(end)
        try row.append(episode.bundleId)
        try row.append(episode.productId)
        try row.append(episode.storefront)
        row.endRow()
        try spool.append(row.bytes)
        count += 1
    }

    private static let expiredTable = PGTable(
        "churn_expired",
        [
            "original_transaction_id": .text, "end_ms": .bigint, "bundle_id": .text, "product_id": .text,
            "storefront": .text,
        ]
    )

    /// What the returns query gives for each expired episode: a temporary table of the session that asks.
    private static let followUpTable = PGTable(
        "churn_follow_ups",
        [
            "end_ms": .bigint, "returned_at": .timestamptz, "product_id": .text, "storefront": .text,
            "original_transaction_id": .text,
        ]
    )

    /// Calls `body` with each collected episode's follow-up.
    /// - Parameters:
    ///   - asOf: the report's as-of time (Unix ms): purchases signed later do not count.
    ///   - customersAsOfLatest: link customers by the stored `subscription_customers` (a report as of the latest
    ///     data), else by the keys known at `asOf` (``CustomerLinks/link(environment:asOf:)``).
    package func followUps(
        environment: String, asOf: Int64, customersAsOfLatest: Bool, store: StoredDataset,
        _ body: (Returns.FollowUp) throws -> Void
    ) throws {
        try start(environment: environment, asOf: asOf, customersAsOfLatest: customersAsOfLatest, store: store)?
            .read(body)
    }

    /// Sends the collected episodes to the server and starts the query that finds their follow-ups, without waiting
    /// for it: the server finds them while the caller does other work, then ``Started/read(_:)`` reads them. The
    /// connection takes nothing else in between.
    /// - Returns: nil when no episode was collected.
    package func start(
        environment: String, asOf: Int64, customersAsOfLatest: Bool, store: StoredDataset
    ) throws -> Started? {
        guard count > 0 else { return nil }
        let connection = store.connection
        let table = Self.expiredTable
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \(table.name) (\(table.columnDefinitions))")
        try connection.execute("TRUNCATE \(table.name)")
        try connection.copyIn(table.copyFromStdin()) { out in try spool.send(to: &out) }
        let customers: String
        if customersAsOfLatest {
            customers =
                "(SELECT original_transaction_id, customer_id FROM subscription_customers WHERE environment = "
                + "\(try connection.quoteLiteral(environment)))"
        } else {
            try CustomerLinks(connection: connection).link(environment: environment, asOf: asOf)
            customers = CustomerLinks.asOfTable
        }
        // asOf is an integer formatted here, never text from outside; the statements take no parameters.
        let cutoff = "'epoch'::timestamptz + \(asOf) * interval '1 millisecond'"
        // Each expired episode looks up its customer's subscriptions (itself when it has no customer) and, for each,
        // the first purchase after the episode's end along the purchases' index: a few index probes per episode
        // instead of a join over every purchase of the environment.
        let query = """
            WITH expired AS (
                SELECT e.*, 'epoch'::timestamptz + e.end_ms * interval '1 millisecond' AS end_at,
                       c.customer_id AS customer
                FROM churn_expired e LEFT JOIN \(customers) c ON c.original_transaction_id = e.original_transaction_id
            )
            SELECT x.end_ms, r.returned_at, x.product_id, x.storefront, x.original_transaction_id
            FROM expired x LEFT JOIN LATERAL (
                SELECT min(first.purchase_date) AS returned_at
                FROM (SELECT x.original_transaction_id AS member WHERE x.customer IS NULL
                      UNION ALL
                      SELECT c.original_transaction_id FROM \(customers) c
                      WHERE x.customer IS NOT NULL AND c.customer_id = x.customer) m
                CROSS JOIN LATERAL (
                    SELECT p.purchase_date FROM subscription_purchases p
                    WHERE p.environment = \(try connection.quoteLiteral(environment))
                      AND p.original_transaction_id = m.member
                      AND p.purchase_date > x.end_at AND p.signed_date <= \(cutoff)
                      AND p.bundle_id IS NOT DISTINCT FROM x.bundle_id
                    ORDER BY p.purchase_date LIMIT 1
                ) first
            ) r ON true
            """
        // The answer is kept in a temporary table, so that the server can finish the whole query before anything is
        // read: a query read as it runs would stop at the socket's buffer until the caller came back for it.
        let result = Self.followUpTable
        let statements = """
            ANALYZE \(table.name);
            DROP TABLE IF EXISTS \(result.name);
            CREATE TEMP TABLE \(result.name) AS \(query);
            """
        return Started(
            connection: connection,
            running: try connection.start(statements, name: "finding the expired episodes' returns"))
    }

    /// The follow-ups' query, running on the server (``CustomerReturns/start(environment:asOf:customersAsOfLatest:store:)``).
    package struct Started: ~Copyable {
        fileprivate let connection: PGConnection
        fileprivate var running: PGStartedStatements

        /// Waits for the query and calls `body` with each collected episode's follow-up.
        package consuming func read(_ body: (Returns.FollowUp) throws -> Void) throws {
            try running.wait()
            let table = CustomerReturns.followUpTable
            var selection = PGSelection(table, qualifier: "f")
            let end = selection.add("end_ms")
            let returned = selection.add("returned_at")
            let product = selection.add("product_id")
            let storefront = selection.add("storefront")
            let subscription = selection.add("original_transaction_id")
            var fields = CopyTextRowReader()
            try connection.copyOut("COPY (SELECT \(selection.list) FROM \(table.name) f) TO STDOUT") { row in
                fields.read(row)
                try body(
                    Returns.FollowUp(
                        subscription: try fields.decode(String.self, subscription),
                        end: try fields.decode(Int64.self, end),
                        returnedAt: try fields.decode(Int64?.self, returned),
                        productId: try fields.decode(String?.self, product),
                        storefront: try fields.decode(String?.self, storefront)))
            }
            try connection.execute("DROP TABLE \(table.name)")
        }
    }
}
