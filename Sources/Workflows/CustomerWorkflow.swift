import Analysis
import AnalysisStore
import EmbeddedPostgres
import Logging
import Reports

/// Brings the episodes up to date and gathers everything stored about one customer (`churn query customer`): for
/// the support engineer asked "what happened to this user?".
package struct CustomerWorkflow {
    package var target: DatabaseTarget
    package var logger: Logger

    package init(target: DatabaseTarget, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// What is known about one customer.
    package struct Answer {
        /// The smallest original transaction id of the customer's subscriptions.
        package var customerId: String
        /// The latest `signedDate` loaded (Unix ms).
        package var asOf: Int64
        package var subscriptions: Int
        package var episodes: Int
        /// Subscriptions, episodes (with each expiry's return) and notifications (``tables(_:)``).
        package var tables: [ReportTable]
    }

    /// The customer whose original transaction id, `appTransactionId` or `appAccountToken` is `id`, as of the latest
    /// `signedDate` loaded.
    /// - Throws: ``WorkflowError/unknownCustomer(id:environment:)``, ``WorkflowError/nothingLoaded(database:)``;
    ///   `PGError`, `EmbeddedClusterError`.
    package func run(id: String, environment: String) throws -> Answer {
        let episodes = try UpToDateEpisodes(target: target, environment: environment, asOf: nil, logger: logger)
        guard
            let history = try CustomerHistory.find(
                id, environment: environment, asOf: episodes.asOf, store: episodes.store)
        else {
            throw WorkflowError.unknownCustomer(id: id, environment: environment)
        }
        return Answer(
            customerId: history.customerId, asOf: history.asOf, subscriptions: history.subscriptions.count,
            episodes: history.episodes.count, tables: Self.tables(history))
    }

    /// The customer's three tables: subscriptions, episodes (with each expiry's return) and notifications.
    package static func tables(_ history: CustomerHistory) -> [ReportTable] {
        let subscriptions = ReportTable(
            name: "subscriptions",
            columns: [
                "original_transaction_id", "product_id", "first_signed", "last_signed", "app_transaction_id",
                "app_account_token", "continues",
            ],
            rows: history.subscriptions.map { subscription in
                [
                    .text(subscription.originalTransactionId), .text(subscription.productId ?? ""),
                    .text(UTCTime.timestamp(subscription.firstSigned)),
                    .text(UTCTime.timestamp(subscription.lastSigned)),
                    .text(subscription.appTransactionIds.joined(separator: " ")),
                    .text(subscription.appAccountTokens.joined(separator: " ")),
                    .text(subscription.continues.joined(separator: " ")),
                ]
            })
        let episodes = ReportTable(
            name: "episodes",
            columns: [
                "original_transaction_id", "sequence", "product_id", "t0", "end", "outcome", "recovered_by",
                "grace_end", "end_inferred", "revocation_type", "revocation_percentage", "returned_at",
                "days_to_return",
            ],
            rows: history.episodes.map { episode in
                let returned =
                    episode.outcome == .expired
                    ? episode.end.flatMap { end in
                        history.returns[CustomerHistory.returnKey(subscription: episode.subscription, end: end)] ?? nil
                    } : nil
                let days = returned.flatMap { back in
                    episode.end.map { Double(back - $0) / Double(Milliseconds.day) }
                }
                return [
                    .text(episode.subscription), .integer(episode.sequence), .text(episode.productId ?? ""),
                    .text(UTCTime.timestamp(episode.start)), .text(episode.end.map(UTCTime.timestamp) ?? ""),
                    .text(episode.outcome.rawValue), .text(episode.recoveredBy?.rawValue ?? ""),
                    .text(episode.graceEnd.map(UTCTime.timestamp) ?? ""), .boolean(episode.endInferred),
                    .text(episode.revocationType ?? ""),
                    episode.revocationPercentage.map { .exact(Int64($0), places: 3) } ?? .empty,
                    .text(returned.map(UTCTime.timestamp) ?? ""), days.map { .decimal($0, places: 1) } ?? .empty,
                ]
            })
        let notifications = ReportTable(
            name: "notifications",
            columns: [
                "signed", "original_transaction_id", "notification_type", "subtype", "product_id", "purchase",
                "expires", "price", "currency", "revocation_type", "revocation_percentage", "billing_plan_type",
            ],
            rows: history.notifications.map { notification in
                [
                    .text(UTCTime.timestamp(notification.signedDate)), .text(notification.subscription),
                    .text(notification.notificationType), .text(notification.subtype ?? ""),
                    .text(notification.productId ?? ""), .text(notification.purchaseDate.map(UTCTime.timestamp) ?? ""),
                    .text(notification.expiresDate.map(UTCTime.timestamp) ?? ""),
                    notification.price.map { .exact($0, places: 3) } ?? .empty, .text(notification.currency ?? ""),
                    .text(notification.revocationType ?? ""),
                    notification.revocationPercentage.map { .exact(Int64($0), places: 3) } ?? .empty,
                    .text(notification.billingPlanType ?? ""),
                ]
            })
        return [subscriptions, episodes, notifications]
    }
}
