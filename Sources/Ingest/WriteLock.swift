import PGClient
import Store

/// The lock that serializes loads' writes into one schema (``AdvisoryLockKey/loadWrite``): a batch's check of its
/// keys and its write, and a file's last transaction.
///
/// Transaction-scoped, and waited for inside PostgreSQL: it is released when the transaction that took it ends.
final class WriteLock {
    private let connection: PGConnection
    private var key: Int64?

    init(connection: PGConnection) {
        self.connection = connection
    }

    /// Waits until no other load is writing into this schema, then holds that lock until the transaction ends.
    /// - Throws: ``PGError``.
    func acquire() throws {
        let key: Int64
        if let known = self.key {
            key = known
        } else {
            key = try AdvisoryLockKey.scoped(AdvisoryLockKey.loadWrite, on: connection)
            self.key = key
        }
        try connection.execute("SELECT pg_advisory_xact_lock($1)", [key])
    }
}
