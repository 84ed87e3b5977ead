import AppStoreNotifications

/// A renewal of the subscription purchased within an episode's retry window, [t0, t0 + W days], in a transaction
/// Apple signed and we verified: the proof that the episode recovered, for an episode older than the 180 days of
/// notification history Apple keeps.
package struct RecoveryProof: Sendable, Equatable {
    package var transactionID: String
    /// Unix ms.
    package var purchaseDate: Int64
    /// Apple's JWS as received, so that anyone can verify it again.
    package var signedTransaction: String
    /// The renewal's `price` (milliunits) and `currency`: what the recovery collected.
    package var price: Int64?
    package var currency: String?

    package init(
        transactionID: String, purchaseDate: Int64, signedTransaction: String, price: Int64? = nil,
        currency: String? = nil
    ) {
        self.transactionID = transactionID
        self.purchaseDate = purchaseDate
        self.signedTransaction = signedTransaction
        self.price = price
        self.currency = currency
    }

    /// The proof `transaction` gives for the episode of `originalTransactionID` that started at `start` and whose
    /// retry window ends at `windowEnd` (Unix ms); nil when it gives none: another subscription, not a renewal
    /// (`transactionReason` `RENEWAL`), or purchased outside the window.
    package init?(
        _ transaction: JWSTransactionDecodedPayload, signed token: String, originalTransactionID: String, start: Int64,
        windowEnd: Int64
    ) {
        guard transaction.originalTransactionId == originalTransactionID,
            transaction.transactionReason == .known(.renewal), let transactionID = transaction.transactionId,
            let purchaseDate = transaction.purchaseDate, start <= purchaseDate, purchaseDate <= windowEnd
        else { return nil }
        self.init(
            transactionID: transactionID, purchaseDate: purchaseDate, signedTransaction: token,
            price: transaction.price, currency: transaction.currency)
    }
}
