import Logging
import PGClient

/// Keys of the advisory locks the tool takes, session-level unless a key says otherwise. One namespace, so they never
/// collide.
///
/// Advisory locks belong to a database, and a database may hold several churn schemas (one per app, or per
/// test): ``scoped(_:on:)`` mixes the current schema into a key so each schema has its own locks.
package enum AdvisoryLockKey {
    /// `base` mixed with a hash of the connection's current schema.
    package static func scoped(_ base: Int64, on connection: PGConnection) throws -> Int64 {
        let hash = try connection.execute("SELECT hashtext(current_schema())").scalar.flatMap { Int64($0) } ?? 0
        return base ^ (hash << 16)
    }

    /// Serializes schema migrations.
    package static let migrate: Int64 = 0x4348_5552_4E00_0001
    /// Held by `churn nightly` for its whole run.
    package static let nightly: Int64 = 0x4348_5552_4E00_0002
    /// Serializes episode rebuilds.
    package static let analyze: Int64 = 0x4348_5552_4E00_0003
    /// Serializes what loads write: held (transaction-scoped) by each batch's check of which notifications are
    /// stored and its COPY of the others, and by each file's final transaction. A loader that holds it for a whole
    /// file's transaction excludes the others all the same: the number itself must never change.
    package static let loadWrite: Int64 = 0x4348_5552_4E00_0004
    /// Held by a history fetch (`churn fetch`, `churn nightly --fetch`) for its whole run.
    package static let fetch: Int64 = 0x4348_5552_4E00_0005
}

extension PGConnection {
    /// Waits up to `timeout` seconds for the session-level lock `key`, and when another session holds it, first says
    /// so at notice level, naming the session: `waiting up to 600 s for another nightly run to finish`, with the
    /// holder in `lock.holder`.
    /// - Parameter work: what the holder is doing, in the words of "another … to finish".
    /// - Returns: whether the lock was taken before the timeout.
    package func advisoryLock(_ key: Int64, timeout: Double, awaiting work: String, logger: Logger) throws -> Bool {
        try advisoryLock(key, timeout: timeout) { holder in
            Self.sayWaiting("waiting up to \(Int(timeout)) s for another \(work) to finish", holder, logger)
        }
    }

    /// Waits for the session-level lock `key` for as long as it takes, and when another session holds it, first says
    /// so at notice level, naming the session: `waiting for another analysis to finish`, with the holder in
    /// `lock.holder`.
    /// - Parameter work: what the holder is doing, in the words of "another … to finish".
    package func advisoryLock(_ key: Int64, awaiting work: String, logger: Logger) throws {
        try advisoryLock(key) { holder in
            Self.sayWaiting("waiting for another \(work) to finish", holder, logger)
        }
    }

    private static func sayWaiting(_ message: Logger.Message, _ holder: LockHolder?, _ logger: Logger) {
        let named = holder.map(String.init(describing:)) ?? "none: it was let go"
        logger.notice(message, metadata: ["lock.holder": "\(named)"])
    }
}
