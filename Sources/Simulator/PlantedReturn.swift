/// A customer's return the simulator planted after an involuntary expiry (``SimulationOptions/returnRate``): the
/// ground truth of `returns.csv`, written to `<export>.returns.csv`.
package struct PlantedReturn: Hashable, Sendable {
    /// The subscription whose billing retry ended unpaid.
    package var expiredSubscription: String
    /// When it expired (Unix ms): the episode's end, the signed date of its `EXPIRED`/`BILLING_RETRY`, or day 60 after
    /// t0 when none was sent.
    package var expiredAt: Int64
    /// The subscription the customer came back on: the same one, or a new one of the same Apple Account.
    package var subscription: String
    /// The returning purchase (Unix ms).
    package var returnedAt: Int64
    package var isNewSubscription: Bool
    /// The subscriber's environment.
    package var environment = ""

    /// The columns of `<export>.returns.csv`.
    package static let columns = [
        "expired_subscription", "expired_ms", "environment", "subscription", "returned_ms", "new_subscription",
    ]

    /// The row's fields, in ``columns`` order.
    package var fields: [String] {
        [
            expiredSubscription, String(expiredAt), environment, subscription, String(returnedAt),
            String(isNewSubscription),
        ]
    }
}
