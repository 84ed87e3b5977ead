import Analysis
import PGClient
import Store

/// Everything stored about one customer (`churn query customer`): its subscriptions, their episodes with each
/// expiry's return, and their notifications, found by any of the customer's ids.
package struct CustomerHistory: Sendable {
    /// One subscription of the customer.
    package struct Subscription: Hashable, Sendable {
        package var originalTransactionId: String
        package var firstSigned: Int64
        package var lastSigned: Int64
        /// The product of its latest notification.
        package var productId: String?
        /// The `appTransactionId`s and non-empty `appAccountToken`s its notifications carried.
        package var appTransactionIds: [String]
        package var appAccountTokens: [String]
        /// The subscription it continues after a migration (`previousOriginalTransactionId`).
        package var continues: [String]
    }

    /// One notification of the customer's subscriptions, with the fields a support engineer asks about.
    package struct Notification: Hashable, Sendable {
        package var signedDate: Int64
        package var subscription: String
        package var notificationType: String
        package var subtype: String?
        package var productId: String?
        package var purchaseDate: Int64?
        package var expiresDate: Int64?
        /// Milliunits of `currency`.
        package var price: Int64?
        package var currency: String?
        /// `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`.
        package var revocationType: String?
        /// The refunded share of a prorated refund, in milli-percent.
        package var revocationPercentage: Int?
        package var billingPlanType: String?
        package var notificationUUID: String
    }

    /// The customer's id: the smallest original transaction id of its subscriptions.
    package var customerId: String
    package var asOf: Int64
    /// By first signed date.
    package var subscriptions: [Subscription]
    /// By subscription and sequence, finished as of ``asOf``.
    package var episodes: [Episode]
    /// Each expired episode's return (Unix ms), by subscription and episode end; nil for none by ``asOf``.
    package var returns: [String: Int64?]
    /// In signed order.
    package var notifications: [Notification]

    /// The key of ``returns`` for an expired episode.
    package static func returnKey(subscription: String, end: Int64) -> String { "\(subscription) \(end)" }

    /// The customer whose subscription, `appTransactionId` or `appAccountToken` is `id`, as of `asOf` (the latest
    /// `signedDate` loaded); nil when no analysed subscription of `environment` has it.
    ///
    /// A token is a UUID (Apple's "uuid appAccountToken"), which is the same UUID in any case: `id` matches a token
    /// stored as given, in lower case (as a UUID is written) or in upper case (Swift's `uuidString`).
    package static func find(
        _ id: String, environment: String, asOf: Int64, store: StoredDataset
    ) throws -> CustomerHistory? {
        let connection = store.connection
        let subscriptions = try connection.execute(
            """
            WITH hit AS (
                SELECT original_transaction_id FROM subscription_links
                WHERE environment = $1 AND link IN (
                    'app_transaction_id:' || $2, 'app_account_token:' || $2,
                    'app_account_token:' || lower($2), 'app_account_token:' || upper($2))
                UNION
                SELECT $2 WHERE EXISTS (
                    SELECT 1 FROM notifications
                    WHERE environment = $1 AND original_transaction_id = $2
                      AND in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED')
            ), customer AS (
                SELECT DISTINCT coalesce(c.customer_id, h.original_transaction_id) AS customer_id
                FROM hit h LEFT JOIN subscription_customers c
                  ON c.environment = $1 AND c.original_transaction_id = h.original_transaction_id
            )
            SELECT DISTINCT k.customer_id, coalesce(c.original_transaction_id, k.customer_id) AS original_transaction_id
            FROM customer k LEFT JOIN subscription_customers c ON c.environment = $1 AND c.customer_id = k.customer_id
            ORDER BY 1, 2
            """,
            [environment, id]
        )
        let customerField = try subscriptions.field("customer_id")
        let subscriptionField = try subscriptions.field("original_transaction_id")
        guard let first = subscriptions.rows.first else { return nil }
        let customerId = try first.decode(String.self, customerField)
        let members = try subscriptions.rows.map { try $0.decode(String.self, subscriptionField) }
        let list = PGArray.texts(members)

        let summary = try connection.execute(
            """
            SELECT original_transaction_id,
                   (date_part('epoch', min(signed_date)) * 1000)::int8 AS first_signed,
                   (date_part('epoch', max(signed_date)) * 1000)::int8 AS last_signed,
                   (array_agg(product_id ORDER BY signed_date DESC, notification_uuid DESC))[1] AS product_id,
                   coalesce(string_agg(DISTINCT app_transaction_id, ' '), '') AS app_transaction_ids,
                   coalesce(string_agg(DISTINCT app_account_token, ' '), '') AS app_account_tokens,
                   coalesce(string_agg(DISTINCT previous_original_transaction_id, ' '), '') AS continues
            FROM notifications
            WHERE environment = $1 AND original_transaction_id = ANY($2)
              AND signed_date <= $3
            GROUP BY original_transaction_id
            ORDER BY first_signed, original_transaction_id
            """,
            [environment, list, PGInstant(milliseconds: asOf)]
        )
        let words = { (text: String) in text.split(separator: " ").map(String.init) }
        let subscription = try summary.field("original_transaction_id")
        let (firstSigned, lastSigned) = (try summary.field("first_signed"), try summary.field("last_signed"))
        let product = try summary.field("product_id")
        let appTransactionIDs = try summary.field("app_transaction_ids")
        let appAccountTokens = try summary.field("app_account_tokens")
        let continues = try summary.field("continues")
        let subscriptionRows = try summary.rows.map { row in
            Subscription(
                originalTransactionId: try row.decode(String.self, subscription),
                firstSigned: try row.decode(Int64.self, firstSigned),
                lastSigned: try row.decode(Int64.self, lastSigned),
                productId: try row.decode(String?.self, product),
                appTransactionIds: words(try row.decode(String.self, appTransactionIDs)),
                appAccountTokens: words(try row.decode(String.self, appAccountTokens)),
                continues: words(try row.decode(String.self, continues)))
        }

        let columns = StoredEpisodeColumns()
        let stored = try connection.execute(
            """
            SELECT \(columns.selectList) FROM billing_episodes
            WHERE environment = $1 AND original_transaction_id = ANY($2)
            ORDER BY \(StoredEpisodeColumns.orderBy)
            """,
            [environment, list]
        )
        var episodes: [Episode] = []
        var expired = CustomerReturns()
        for row in stored.rows {
            var episode = try columns.episode(row, environment: environment)
            guard episode.start <= asOf else { continue }
            episode.closeRetryWindow(asOf: asOf)
            try expired.add(episode)
            episodes.append(episode)
        }
        var returns: [String: Int64?] = [:]
        try expired.followUps(environment: environment, asOf: asOf, customersAsOfLatest: true, store: store) {
            returns.updateValue($0.returnedAt, forKey: returnKey(subscription: $0.subscription, end: $0.end))
        }

        let timeline = try connection.execute(
            """
            SELECT (date_part('epoch', signed_date) * 1000)::int8 AS signed_ms, original_transaction_id,
                   notification_type, subtype, product_id,
                   (date_part('epoch', purchase_date) * 1000)::int8 AS purchase_ms,
                   (date_part('epoch', expires_date) * 1000)::int8 AS expires_ms, price, currency, revocation_type,
                   revocation_percentage, billing_plan_type, notification_uuid::text AS notification_uuid
            FROM notifications
            WHERE environment = $1 AND original_transaction_id = ANY($2)
              AND signed_date <= $3
            ORDER BY signed_date, notification_uuid
            """,
            [environment, list, PGInstant(milliseconds: asOf)]
        )
        let signed = try timeline.field("signed_ms")
        let owner = try timeline.field("original_transaction_id")
        let type = try timeline.field("notification_type")
        let subtype = try timeline.field("subtype")
        let productID = try timeline.field("product_id")
        let purchase = try timeline.field("purchase_ms")
        let expires = try timeline.field("expires_ms")
        let price = try timeline.field("price")
        let currency = try timeline.field("currency")
        let revocationType = try timeline.field("revocation_type")
        let revocationPercentage = try timeline.field("revocation_percentage")
        let billingPlanType = try timeline.field("billing_plan_type")
        let uuid = try timeline.field("notification_uuid")
        let notifications = try timeline.rows.map { row in
            Notification(
                signedDate: try row.decode(Int64.self, signed), subscription: try row.decode(String.self, owner),
                notificationType: try row.decode(String.self, type), subtype: try row.decode(String?.self, subtype),
                productId: try row.decode(String?.self, productID), purchaseDate: try row.decode(Int64?.self, purchase),
                expiresDate: try row.decode(Int64?.self, expires), price: try row.decode(Int64?.self, price),
                currency: try row.decode(String?.self, currency),
                revocationType: try row.decode(String?.self, revocationType),
                revocationPercentage: try row.decode(Int?.self, revocationPercentage),
                billingPlanType: try row.decode(String?.self, billingPlanType),
                notificationUUID: try row.decode(String.self, uuid))
        }
        return CustomerHistory(
            customerId: customerId, asOf: asOf, subscriptions: subscriptionRows, episodes: episodes, returns: returns,
            notifications: notifications)
    }
}
