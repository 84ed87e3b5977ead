import PGClient

/// The primary key of a stored notification: `(original_transaction_id, notification_uuid)`.
///
/// A notification's content decides its subscription (``NotificationRow/subscription(of:)``), so a notificationUUID
/// comes with one subscription only, and a key stored once means a notificationUUID stored once
/// (`sql/008_subscription_keys.sql`).
struct NotificationKey: Hashable, Sendable {
    /// `original_transaction_id`: '' for a notification without a subscription.
    var subscription: String
    /// `notification_uuid` in lower case, the form PostgreSQL prints.
    var uuid: String

    /// Which of `keys` `notifications` holds, looked up through its primary key.
    /// - Important: each `uuid` must be a valid UUID (``UUIDText``): PostgreSQL refuses the whole lookup otherwise.
    static func stored(_ keys: [NotificationKey], connection: PGConnection) throws -> Set<NotificationKey> {
        guard !keys.isEmpty else { return [] }
        let rows = try connection.execute(
            """
            SELECT n.original_transaction_id, n.notification_uuid::text
            FROM unnest($1::text[], $2::uuid[]) AS k (original_transaction_id, notification_uuid)
            JOIN notifications n USING (original_transaction_id, notification_uuid)
            """,
            [PGArray.literal(keys.map(\.subscription)), "{" + keys.map(\.uuid).joined(separator: ",") + "}"]
        ).rows
        return Set(
            rows.compactMap { row in
                guard row.count == 2, let subscription = row[0], let uuid = row[1] else { return nil }
                return NotificationKey(subscription: subscription, uuid: uuid)
            }
        )
    }
}
