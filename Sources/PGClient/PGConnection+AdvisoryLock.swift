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
