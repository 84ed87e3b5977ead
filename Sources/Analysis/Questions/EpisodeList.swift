/// The episodes themselves, one row each, for `churn query episodes`.
package enum EpisodeList {
    /// Episodes in a stable order: by start, then subscription (UTF-8 bytes), then sequence.
    package static func sorted(_ episodes: [Episode]) -> [Episode] {
        episodes.sorted(by: precedes)
    }

    /// Whether `lhs` comes before `rhs` in ``sorted(_:)``'s order.
    static func precedes(_ lhs: Episode, _ rhs: Episode) -> Bool {
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        if lhs.subscription != rhs.subscription {
            return lhs.subscription.utf8.lexicographicallyPrecedes(rhs.subscription.utf8)
        }
        return lhs.sequence < rhs.sequence
    }

    /// Inserts `episode` into `listed`, which holds the first of some episodes in ``sorted(_:)``'s order, so that
    /// it holds the first `limit` of them and `episode`.
    static func insert(_ episode: Episode, into listed: inout [Episode], keepingFirst limit: Int) {
        if listed.count >= limit, let last = listed.last, !precedes(episode, last) { return }
        var low = 0
        var high = listed.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(listed[middle], episode) { low = middle + 1 } else { high = middle }
        }
        listed.insert(episode, at: low)
        if listed.count > limit { listed.removeLast() }
    }
}
