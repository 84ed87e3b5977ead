/// The episodes themselves, one row each, for `churn query episodes`.
package enum EpisodeList {
    /// Episodes in a stable order: by start, then subscription (UTF-8 bytes), then sequence.
    package static func sorted(_ episodes: [Episode]) -> [Episode] {
        episodes.sorted { lhs, rhs in
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.subscription != rhs.subscription {
                return lhs.subscription.utf8.lexicographicallyPrecedes(rhs.subscription.utf8)
            }
            return lhs.sequence < rhs.sequence
        }
    }
}
