import Analysis
import PGClient
import Store

/// Streams stored notifications as ``NotificationEvent`` values, ordered by subscription, `signedDate` and
/// `notificationUUID`, with one `COPY … TO STDOUT`: memory stays flat however many rows there are.
///
/// A notification without a subscription (`original_transaction_id` '') becomes an event whose
/// `originalTransactionId` is nil; those come first, as one run.
struct NotificationEventReader {
    let connection: PGConnection

    /// Which notifications to read.
    enum Scope {
        /// Every notification signed at or before `asOf` (Unix ms).
        case all(asOf: Int64?)
        /// The notifications of the subscriptions listed in the session's temporary table `churn_touched`.
        case touched
    }

    /// The columns an event is read from, as fields of one row; times as Unix milliseconds.
    private struct Columns {
        let selection: PGSelection
        let uuid: PGField
        let type: PGField
        let subtype: PGField
        let signedDate: PGField
        let environment: PGField
        let subscription: PGField
        let transactionID: PGField
        let productID: PGField
        let storefront: PGField
        let purchaseDate: PGField
        let expiresDate: PGField
        let price: PGField
        let currency: PGField
        let ownershipType: PGField
        let offerType: PGField
        let offerDiscountType: PGField
        let gracePeriodExpiresDate: PGField
        let transactionReason: PGField
        let bundleID: PGField
        let renewalPrice: PGField
        let renewalCurrency: PGField
        let appAccountToken: PGField
        let appTransactionID: PGField
        let previousSubscription: PGField
        let revocationType: PGField
        let revocationPercentage: PGField
        let billingPlanType: PGField
        let commitmentBillingPeriodNumber: PGField
        let commitmentTotalBillingPeriods: PGField

        init() {
            var selection = PGSelection(StoredTables.notifications, qualifier: "n")
            uuid = selection.add("notification_uuid")
            type = selection.add("notification_type")
            subtype = selection.add("subtype")
            signedDate = selection.add("signed_date")
            environment = selection.add("environment")
            subscription = selection.add(
                "original_transaction_id", expression: "nullif(n.original_transaction_id, '')")
            transactionID = selection.add("transaction_id")
            productID = selection.add("product_id")
            storefront = selection.add("storefront")
            purchaseDate = selection.add("purchase_date")
            expiresDate = selection.add("expires_date")
            price = selection.add("price")
            currency = selection.add("currency")
            ownershipType = selection.add("in_app_ownership_type")
            offerType = selection.add("offer_type")
            offerDiscountType = selection.add("offer_discount_type")
            gracePeriodExpiresDate = selection.add("grace_period_expires_date")
            transactionReason = selection.add("transaction_reason")
            bundleID = selection.add("bundle_id")
            renewalPrice = selection.add("renewal_price")
            renewalCurrency = selection.add("renewal_currency")
            appAccountToken = selection.add("app_account_token", expression: "nullif(n.app_account_token, '')")
            appTransactionID = selection.add("app_transaction_id")
            previousSubscription = selection.add("previous_original_transaction_id")
            revocationType = selection.add("revocation_type")
            revocationPercentage = selection.add("revocation_percentage")
            billingPlanType = selection.add("billing_plan_type")
            commitmentBillingPeriodNumber = selection.add("commitment_billing_period_number")
            commitmentTotalBillingPeriods = selection.add("commitment_total_billing_periods")
            self.selection = selection
        }
    }

    private static let columns = Columns()

    /// The last value read of each column whose values repeat from one notification to the next.
    private struct Repeated {
        var type: String?
        var subtype: String?
        var bundleID: String?
        var subscription: String?
        var productID: String?
        var appAccountToken: String?
        var appTransactionID: String?
    }

    static func query(_ scope: Scope) -> String {
        var sql = "SELECT \(columns.selection.list) FROM notifications n"
        switch scope {
        case .all(let asOf):
            // COPY takes no parameters; asOf is an integer formatted here, never text from outside.
            if let asOf {
                sql += " WHERE n.signed_date <= 'epoch'::timestamptz + \(asOf) * interval '1 millisecond'"
            }
        case .touched:
            // A plain equality join walks the subscription index from the touched subscriptions, notifications
            // without one ('') included.
            sql += " JOIN churn_touched t ON t.original_transaction_id = n.original_transaction_id"
        }
        sql += " ORDER BY n.original_transaction_id, n.signed_date, n.notification_uuid"
        return "COPY (\(sql)) TO STDOUT"
    }

    /// Whether a read of every notification asks the server to go along the subscription index, which holds their
    /// order: when the table fits in the cache the server says it has (`effective_cache_size`). Rows then stream
    /// from the first while this process builds, where a sort reads and orders every row before the first leaves,
    /// with this process idle. A larger table is sorted as the planner chooses: read in the index's order, its pages
    /// would come from disk one at a time. The size of a partitioned table is its partitions' together (it has none
    /// of its own).
    func readsAlongIndex() throws -> Bool {
        let rows = try connection.execute(
            """
            SELECT greatest(
                       pg_relation_size('notifications'),
                       (SELECT coalesce(sum(pg_relation_size(relid)), 0) FROM pg_partition_tree('notifications')))
                   <= pg_size_bytes(current_setting('effective_cache_size')) AS fits
            """)
        return try rows.rows.first?.decode(Bool.self, try rows.field("fits")) ?? false
    }

    /// Turns the server's sorts off for the rest of the transaction when a read of every notification goes along
    /// the index (``readsAlongIndex()``).
    /// - Returns: `enable_sort` as it was, to set back after the read; nil when nothing was changed.
    private func sortOffForIndexOrder(_ scope: Scope) throws -> String? {
        guard case .all = scope, try readsAlongIndex() else { return nil }
        let previous = try connection.execute("SELECT current_setting('enable_sort')").scalar ?? "on"
        try connection.execute("SELECT set_config('enable_sort', 'off', true)")
        return previous
    }

    /// Calls `body` with each event in order, handing it over: an event kept (``EpisodeStream/add(_:)`` consumes it)
    /// is moved rather than copied.
    /// - Returns: the number of events read.
    @discardableResult
    func read(_ scope: Scope, _ body: (consuming NotificationEvent) throws -> Void) throws -> Int {
        var rows = CopyTextRowReader()
        let columns = Self.columns
        // The values a subscription's notifications repeat, kept from the row before: each is then one string
        // rather than one per row (most are too long for a string's inline storage).
        var repeated = Repeated()
        let previousSort = try sortOffForIndexOrder(scope)
        defer {
            if let previousSort {
                _ = try? connection.execute("SELECT set_config('enable_sort', $1, true)", [previousSort])
            }
        }
        return try connection.copyOut(Self.query(scope)) { row in
            rows.read(row)
            // A constant copy for the reads below: of the closure's variable, each read would retain and release
            // the row's buffer of field bounds.
            let fields = rows
            guard fields.count == columns.selection.count else {
                throw PGError(
                    kind: .unexpectedResult,
                    message:
                        "a notification row has \(fields.count) fields where \(columns.selection.count) were selected")
            }
            try body(
                NotificationEvent(
                    notificationUUID: try fields.decode(String.self, columns.uuid),
                    notificationType: try fields.decode(String.self, columns.type, reusing: &repeated.type),
                    subtype: try fields.decode(String?.self, columns.subtype, reusing: &repeated.subtype),
                    signedDate: try fields.decode(Int64.self, columns.signedDate),
                    environment: try fields.decode(String?.self, columns.environment),
                    bundleId: try fields.decode(String?.self, columns.bundleID, reusing: &repeated.bundleID),
                    originalTransactionId: try fields.decode(
                        String?.self, columns.subscription, reusing: &repeated.subscription),
                    transactionId: try fields.decode(String?.self, columns.transactionID),
                    productId: try fields.decode(String?.self, columns.productID, reusing: &repeated.productID),
                    storefront: try fields.decode(String?.self, columns.storefront),
                    purchaseDate: try fields.decode(Int64?.self, columns.purchaseDate),
                    expiresDate: try fields.decode(Int64?.self, columns.expiresDate),
                    price: try fields.decode(Int64?.self, columns.price),
                    currency: try fields.decode(String?.self, columns.currency),
                    inAppOwnershipType: try fields.decode(String?.self, columns.ownershipType),
                    offerType: try fields.decode(Int32?.self, columns.offerType),
                    offerDiscountType: try fields.decode(String?.self, columns.offerDiscountType),
                    gracePeriodExpiresDate: try fields.decode(Int64?.self, columns.gracePeriodExpiresDate),
                    renewalPrice: try fields.decode(Int64?.self, columns.renewalPrice),
                    renewalCurrency: try fields.decode(String?.self, columns.renewalCurrency),
                    transactionReason: try fields.decode(String?.self, columns.transactionReason),
                    appAccountToken: try fields.decode(
                        String?.self, columns.appAccountToken, reusing: &repeated.appAccountToken),
                    appTransactionId: try fields.decode(
                        String?.self, columns.appTransactionID, reusing: &repeated.appTransactionID),
                    previousOriginalTransactionId: try fields.decode(String?.self, columns.previousSubscription),
                    revocationType: try fields.decode(String?.self, columns.revocationType),
                    revocationPercentage: try fields.decode(Int32?.self, columns.revocationPercentage),
                    billingPlanType: try fields.decode(String?.self, columns.billingPlanType),
                    commitmentBillingPeriodNumber: try fields.decode(
                        Int32?.self, columns.commitmentBillingPeriodNumber),
                    commitmentTotalBillingPeriods: try fields.decode(
                        Int32?.self, columns.commitmentTotalBillingPeriods)
                )
            )
        }
    }
}
