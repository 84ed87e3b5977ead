import Analysis
import PGClient

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

    /// Milliseconds since the epoch of a timestamptz column, exact for millisecond values.
    private static func milliseconds(_ column: String) -> String {
        "(date_part('epoch', n.\(column)) * 1000)::int8"
    }

    static func query(_ scope: Scope) -> String {
        let columns = [
            "n.notification_uuid", "n.notification_type", "n.subtype", milliseconds("signed_date"), "n.environment",
            "nullif(n.original_transaction_id, '')", "n.transaction_id", "n.product_id", "n.storefront",
            milliseconds("purchase_date"), milliseconds("expires_date"), "n.price", "n.currency",
            "n.in_app_ownership_type", "n.offer_type", "n.offer_discount_type",
            milliseconds("grace_period_expires_date"), "n.transaction_reason", "n.bundle_id", "n.renewal_price",
            "n.renewal_currency", "nullif(n.app_account_token, '')",
        ].joined(separator: ", ")
        var sql = "SELECT \(columns) FROM notifications n"
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

    /// Calls `body` with each event in order, handing it over: an event kept (``EpisodeStream/add(_:)`` consumes it)
    /// is moved rather than copied.
    /// - Returns: the number of events read.
    @discardableResult
    func read(_ scope: Scope, _ body: (consuming NotificationEvent) throws -> Void) throws -> Int {
        var fields = CopyTextRowReader()
        return try connection.copyOut(Self.query(scope)) { row in
            fields.read(row)
            guard fields.count == 22, let uuid = fields.text(0), let type = fields.text(1),
                let signedDate = fields.int64(3)
            else {
                throw PGError(kind: .unexpectedResult, message: "a notification row has an unexpected shape")
            }
            try body(
                NotificationEvent(
                    notificationUUID: uuid,
                    notificationType: type,
                    subtype: fields.text(2),
                    signedDate: signedDate,
                    environment: fields.text(4),
                    bundleId: fields.text(18),
                    originalTransactionId: fields.text(5),
                    transactionId: fields.text(6),
                    productId: fields.text(7),
                    storefront: fields.text(8),
                    purchaseDate: fields.int64(9),
                    expiresDate: fields.int64(10),
                    price: fields.int64(11),
                    currency: fields.text(12),
                    inAppOwnershipType: fields.text(13),
                    offerType: fields.int64(14).flatMap { Int32(exactly: $0) },
                    offerDiscountType: fields.text(15),
                    gracePeriodExpiresDate: fields.int64(16),
                    renewalPrice: fields.int64(19),
                    renewalCurrency: fields.text(20),
                    transactionReason: fields.text(17),
                    appAccountToken: fields.text(21)
                )
            )
        }
    }
}
