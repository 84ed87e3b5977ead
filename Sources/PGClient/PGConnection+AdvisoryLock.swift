#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PGConnection {
    /// Takes a session-level advisory lock if it is free.
    /// - Returns: whether this session now holds the lock.
    package func tryAdvisoryLock(_ key: Int64) throws(PGError) -> Bool {
        try execute("SELECT pg_try_advisory_lock($1::bigint)", [String(key)]).scalar == "t"
    }

    /// Waits up to `timeout` seconds for a session-level advisory lock.
    /// - Returns: whether the lock was taken before the timeout.
    package func advisoryLock(_ key: Int64, timeout: Double) throws(PGError) -> Bool {
        var waited = 0.0
        let step = 0.2
        while true {
            if try tryAdvisoryLock(key) { return true }
            if waited >= timeout { return false }
            usleep(useconds_t(step * 1_000_000))
            waited += step
        }
    }

    /// Releases a session-level advisory lock taken by this session.
    package func advisoryUnlock(_ key: Int64) throws(PGError) {
        try execute("SELECT pg_advisory_unlock($1::bigint)", [String(key)])
    }
}
