/// A renewal of a subscription that Apple's transaction history shows and that was verified (`churn repair`, beyond
/// the 180 days of notification history Apple keeps): evidence the episode rules take where the notifications leave
/// an episode's end unknown (METRICS-NOTES.md, "Repair beyond 180 days").
///
/// It counts as of its `purchaseDate`, as a notification counts as of its `signedDate`: a renewal is a fact of the
/// time it was purchased, whenever it was fetched, like the notifications a fetched history brings.
package struct ProvenRecovery: Hashable, Sendable {
    /// The renewal's `transactionId`.
    package var transactionId: String
    /// Its `purchaseDate` (Unix ms).
    package var purchaseDate: Int64
    /// Its `price` (milliunits) and `currency`.
    package var price: Int64?
    package var currency: String?

    package init(transactionId: String, purchaseDate: Int64, price: Int64? = nil, currency: String? = nil) {
        self.transactionId = transactionId
        self.purchaseDate = purchaseDate
        self.price = price
        self.currency = currency
    }

    /// Whether this renewal ends `episode`'s billing retry: purchased within its retry window, [t0, t0 + W days].
    package func recovers(_ episode: Episode) -> Bool {
        guard let windowEnd = episode.retryWindowEnd else { return false }
        return episode.start <= purchaseDate && purchaseDate <= windowEnd
    }
}
