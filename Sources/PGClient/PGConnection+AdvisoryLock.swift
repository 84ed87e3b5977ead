import CivilTime

extension PGConnection {
    /// Takes a session-level advisory lock if it is free.
    /// - Returns: whether this session now holds the lock.
    package func tryAdvisoryLock(_ key: Int64) throws(PGError) -> Bool {
        try execute("SELECT pg_try_advisory_lock(\(bind: key))").scalar == "t"
    }

    /// Waits up to `timeout` seconds for a session-level advisory lock.
    /// - Returns: whether the lock was taken before the timeout.
    /// - Throws: ``PGError`` for failures other than the timeout, which returns false.
    package func advisoryLock(_ key: Int64, timeout: Double) throws(PGError) -> Bool {
        do throws(PGError) {
            try waitForAdvisoryLock(key, timeout: timeout)
            return true
        } catch  where error.isLockNotAvailable {
            return false
        }
    }

    /// Waits up to `timeout` seconds for a session-level advisory lock, as ``advisoryLock(_:timeout:)`` does, and
    /// when another session holds it, first calls `waiting` with that session (nil when it let go in between), so
    /// that a command says what it waits for before it waits.
    /// - Returns: whether the lock was taken before the timeout.
    package func advisoryLock(
        _ key: Int64, timeout: Double, waiting: (LockHolder?) -> Void
    ) throws(PGError) -> Bool {
        if try tryAdvisoryLock(key) { return true }
        waiting(try holder(of: key))
        return try advisoryLock(key, timeout: timeout)
    }

    /// Waits for a session-level advisory lock for as long as it takes, and when another session holds it, first
    /// calls `waiting` with that session (nil when it let go in between), as
    /// ``advisoryLock(_:timeout:waiting:)`` does.
    package func advisoryLock(_ key: Int64, waiting: (LockHolder?) -> Void) throws(PGError) {
        if try tryAdvisoryLock(key) { return }
        waiting(try holder(of: key))
        try execute("SELECT pg_advisory_lock(\(bind: key))")
    }

    /// The session that holds the session-level advisory lock `key` in this database, as `pg_locks` and
    /// `pg_stat_activity` show it; nil when none does.
    package func holder(of key: Int64) throws(PGError) -> LockHolder? {
        // A bigint key is two oids in pg_locks: its high half in classid, its low half in objid, with objsubid 1.
        let rows = try execute(
            """
            SELECT a.pid, coalesce(a.application_name, '') AS application_name,
                   (date_part('epoch', a.backend_start) * 1000)::int8 AS connected
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.classid::int8 = $1 AND l.objid::int8 = $2
            LIMIT 1
            """,
            [Int64(UInt32(truncatingIfNeeded: key >> 32)), Int64(UInt32(truncatingIfNeeded: key))]
        )
        guard let row = rows.rows.first else { return nil }
        return LockHolder(
            pid: try row.decode(Int.self, try rows.field("pid")),
            applicationName: try row.decode(String.self, try rows.field("application_name")),
            connected: try row.decode(Int64?.self, try rows.field("connected")))
    }

    /// Waits up to `timeout` seconds for a session-level advisory lock, PostgreSQL doing the waiting: the session
    /// runs `pg_advisory_lock` under a `lock_timeout` of `timeout`, so it gets the lock as soon as the holder lets go.
    /// The session's own `lock_timeout` is set back afterwards.
    /// - Throws: ``PGError`` with SQLSTATE 55P03 (``PGError/isLockNotAvailable``) when the lock was still held by
    ///   another session at the timeout (after a millisecond for a timeout of 0); any other ``PGError`` as it comes.
    /// - Important: Inside a transaction, a timeout aborts the transaction, as any failed statement does.
    package func waitForAdvisoryLock(_ key: Int64, timeout: Double) throws(PGError) {
        if try tryAdvisoryLock(key) { return }
        let previous = try execute("SELECT current_setting('lock_timeout')").scalar ?? "0"
        try execute("SELECT set_config('lock_timeout', $1, false)", ["\(Self.lockTimeoutMilliseconds(timeout))ms"])
        defer { _ = try? execute("SELECT set_config('lock_timeout', $1, false)", [previous]) }
        try execute("SELECT pg_advisory_lock(\(bind: key))")
    }

    /// Releases a session-level advisory lock taken by this session.
    package func advisoryUnlock(_ key: Int64) throws(PGError) {
        try execute("SELECT pg_advisory_unlock(\(bind: key))")
    }

    /// `seconds` as a `lock_timeout` in whole milliseconds: rounded up, at least 1 (0 would mean no limit), at most
    /// the largest value PostgreSQL takes.
    static func lockTimeoutMilliseconds(_ seconds: Double) -> Int {
        let milliseconds = (seconds * 1000).rounded(.up)
        guard milliseconds >= 1 else { return 1 }  // also NaN
        return Int(min(milliseconds, Double(Int32.max)))
    }
}

/// A PostgreSQL session that holds a lock another waits for.
package struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The server process of the session.
    package var pid: Int
    /// What the session called itself (`churn` for every `churn` command); empty for nothing.
    package var applicationName: String
    /// When the session connected, Unix milliseconds.
    package var connected: Int64?

    package init(pid: Int, applicationName: String, connected: Int64?) {
        self.pid = pid
        self.applicationName = applicationName
        self.connected = connected
    }

    /// `PostgreSQL session 4242 (churn), connected 2026-11-29 13:02:11 UTC`.
    package var description: String {
        var text = "PostgreSQL session \(pid)"
        if !applicationName.isEmpty { text += " (\(applicationName))" }
        if let connected {
            let (days, millisecond) = CivilDate.split(unixMilliseconds: connected)
            let date = CivilDate(daysSinceEpoch: days)
            let seconds = Int(millisecond) / 1000
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            text +=
                ", connected \(date.year)-\(two(date.month))-\(two(date.day)) "
                + "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) UTC"
        }
        return text
    }
}
