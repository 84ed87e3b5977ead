/// Whether a transaction is a customer's purchase or a renewal the system started.
///
/// [transactionReason](https://developer.apple.com/documentation/appstoreserverapi/transactionreason)
package enum TransactionReason: String, CaseIterable, Sendable {
    /// A purchase the customer made.
    case purchase = "PURCHASE"
    /// An automatic renewal of an auto-renewable subscription.
    case renewal = "RENEWAL"
}
