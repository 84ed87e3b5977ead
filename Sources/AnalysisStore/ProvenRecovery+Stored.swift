import Analysis
import PGClient
import Store

extension ProvenRecovery {
    /// The renewals Apple's transaction history proved for `environment` (the checks of `churn repair` that hold a
    /// proof), by subscription, in the order they were recorded.
    static func stored(environment: String, connection: PGConnection) throws -> [String: [ProvenRecovery]] {
        var selection = PGSelection(StoredTables.subscriptionChecks)
        let subscription = selection.add("original_transaction_id")
        let transaction = selection.add("proof_transaction_id")
        let purchase = selection.add("proof_purchase_date")
        let price = selection.add("proof_price")
        let currency = selection.add("proof_currency")
        let rows = try connection.execute(
            """
            SELECT \(selection.list) FROM subscription_checks
            WHERE environment = $1 AND proof_transaction_id IS NOT NULL AND proof_purchase_date IS NOT NULL
            ORDER BY id
            """,
            [environment]
        ).rows
        var proofs: [String: [ProvenRecovery]] = [:]
        for row in rows {
            proofs[try row.decode(String.self, subscription), default: []].append(
                ProvenRecovery(
                    transactionId: try row.decode(String.self, transaction),
                    purchaseDate: try row.decode(Int64.self, purchase), price: try row.decode(Int64?.self, price),
                    currency: try row.decode(String?.self, currency)))
        }
        return proofs
    }
}
