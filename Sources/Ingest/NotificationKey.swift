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
        Set(try stored(keys, loadingPath: nil, as: nil, connection: connection).keys)
    }

    /// Where a stored notification came from, as the load of a file needs to know it.
    struct Origin: Equatable, Sendable {
        /// The line of its file it was stored from.
        var line: Int64?
        /// Whether a load of the same path that has not completed stored it: a killed attempt at the file (or one
        /// still running), rather than a file stored whole or another path.
        var isUnfinishedLoadOfPath: Bool
        /// Its `signed_date`, Unix milliseconds.
        var signedDate: Int64 = 0
    }

    /// Which of `keys` `notifications` holds, and where each came from, for the load of the file at `path` whose
    /// `source_files` row is `fileID` (nil for no load: no origin is then an unfinished load of the path).
    /// - Important: each `uuid` must be a valid UUID (``UUIDText``): PostgreSQL refuses the whole lookup otherwise.
    static func stored(
        _ keys: [NotificationKey],
        loadingPath path: String?,
        as fileID: Int64?,
        connection: PGConnection
    ) throws -> [NotificationKey: Origin] {
        guard !keys.isEmpty else { return [:] }
        let result = try connection.execute(
            """
            SELECT n.original_transaction_id, n.notification_uuid::text AS notification_uuid, n.source_line,
                   coalesce(f.sha256 = '' AND f.path = $3 AND f.id <> $4, false) AS unfinished_load_of_path,
                   (extract(epoch FROM n.signed_date) * 1000)::int8 AS signed_date_ms
            FROM unnest($1, $2) AS k (original_transaction_id, notification_uuid)
            JOIN notifications n USING (original_transaction_id, notification_uuid)
            JOIN source_files f ON f.id = n.source_file_id
            """,
            [
                PGArray.texts(keys.map(\.subscription)), PGArray.uuids(keys.map(\.uuid)), path,
                fileID,
            ]
        )
        let fields = (
            subscription: try result.field("original_transaction_id"), uuid: try result.field("notification_uuid"),
            line: try result.field("source_line"), isUnfinished: try result.field("unfinished_load_of_path"),
            signedDate: try result.field("signed_date_ms")
        )
        var origins: [NotificationKey: Origin] = [:]
        for row in result.rows {
            let key = NotificationKey(
                subscription: try row.decode(String.self, fields.subscription),
                uuid: try row.decode(String.self, fields.uuid))
            origins[key] = Origin(
                line: try row.decode(Int64?.self, fields.line),
                isUnfinishedLoadOfPath: try row.decode(Bool.self, fields.isUnfinished),
                signedDate: try row.decode(Int64.self, fields.signedDate)
            )
        }
        return origins
    }
}
