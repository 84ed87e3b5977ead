import Synchronization

/// A cache that worker threads share, for keys that cost time to hash and compare (a JWS header's 2 KB of text, a
/// certificate chain's): callers hash a key and compare it with the stored one outside the lock, which is held only
/// to find or add an entry by that hash. Threads that look up the same key at once, as every decoding worker does for
/// every token, then seldom wait for each other.
///
/// An entry is never replaced: a key whose hash meets another key's entry is not stored, and its look-ups miss (with
/// 64-bit hashes this does not happen in practice; when it does, it costs time, never a wrong value). A full cache
/// starts over empty.
final class SharedCache<Key: Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Int: (key: Key, value: Value)]>([:])
    private let capacity: Int

    /// - Parameter capacity: how many entries are kept before the cache starts over.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value stored under `hash`, if the key stored with it is the one the caller looks for.
    /// - Parameter isKey: whether a stored key is the caller's (called outside the lock).
    func value(hash: Int, isKey: (Key) -> Bool) -> Value? {
        guard let entry = entries.withLock({ $0[hash] }) else { return nil }
        return isKey(entry.key) ? entry.value : nil
    }

    /// Stores `value` for `key` under `hash`, unless an entry already has that hash.
    func insert(_ value: Value, for key: Key, hash: Int) {
        entries.withLock { cache in
            guard cache[hash] == nil else { return }
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[hash] = (key, value)
        }
    }
}
