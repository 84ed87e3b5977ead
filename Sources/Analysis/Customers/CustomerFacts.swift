import NotificationTypes

/// What one subscription tells about its customer (METRICS.md, "Customers who come back"): the keys that link it
/// to other subscriptions, and the purchases that may be a return.
package struct CustomerFacts: Hashable, Sendable {
    /// A key shared by the subscriptions of one customer.
    package struct Link: Hashable, Sendable, Comparable {
        /// What the key is.
        package enum Kind: String, Hashable, Sendable {
            /// `appTransactionId`: one per Apple Account and app.
            case appTransaction = "app_transaction_id"
            /// A non-empty `appAccountToken`: the app's own user id.
            case accountToken = "app_account_token"
            /// The original transaction id of the subscription this one continues after a migration
            /// (`previousOriginalTransactionId`): it links the two, as that subscription's own id.
            case subscription
        }

        package var kind: Kind
        package var value: String

        package init(_ kind: Kind, _ value: String) {
            self.kind = kind
            self.value = value
        }

        /// The stored text of the key: `kind:value`.
        package var key: String { "\(kind.rawValue):\(value)" }

        package static func < (lhs: Link, rhs: Link) -> Bool { lhs.key < rhs.key }
    }

    /// A `SUBSCRIBED` (any subtype) or `OFFER_REDEEMED` notification: a return when it follows an expiry of the
    /// same customer.
    package struct Purchase: Hashable, Sendable {
        /// The transaction's `purchaseDate` (ms); the notification's `signedDate` when the transaction has none.
        package var purchaseDate: Int64
        package var signedDate: Int64
        package var notificationUUID: String
        package var notificationType: String
        package var subtype: String?
        package var bundleId: String?
        package var productId: String?
    }

    /// Each key with the first `signedDate` (ms) it appears at, in the order first seen.
    package private(set) var links: [(link: Link, firstSigned: Int64)] = []
    /// In processing order.
    package private(set) var purchases: [Purchase] = []
    /// The `signedDate` (ms) of the subscription's first notification that counts: from then on, the subscription
    /// holds the `subscription:<its id>` key a migrated subscription links it by. Nil before any.
    package private(set) var firstSigned: Int64?

    package init() {}

    /// Takes what counts of one notification of `subscription`, in processing order.
    mutating func add(_ event: NotificationEvent, subscription: String) {
        if firstSigned == nil { firstSigned = event.signedDate }
        if let id = event.appTransactionId, !id.isEmpty { link(.init(.appTransaction, id), at: event.signedDate) }
        if let token = event.appAccountToken, !token.isEmpty {
            link(.init(.accountToken, token), at: event.signedDate)
        }
        if let previous = event.previousOriginalTransactionId, !previous.isEmpty, previous != subscription {
            link(.init(.subscription, previous), at: event.signedDate)
        }
        if event.notificationType == .subscribed || event.notificationType == .offerRedeemed {
            purchases.append(
                Purchase(
                    purchaseDate: event.purchaseDate ?? event.signedDate, signedDate: event.signedDate,
                    notificationUUID: event.notificationUUID, notificationType: event.notificationType?.rawValue ?? "",
                    subtype: event.subtype?.rawValue, bundleId: event.bundleId, productId: event.productId))
        }
    }

    /// Notifications arrive in signed order, so the first time a key is seen is its earliest.
    private mutating func link(_ link: Link, at signed: Int64) {
        guard !links.contains(where: { $0.link == link }) else { return }
        links.append((link, signed))
    }

    package static func == (lhs: CustomerFacts, rhs: CustomerFacts) -> Bool {
        lhs.purchases == rhs.purchases && lhs.firstSigned == rhs.firstSigned
            && lhs.links.elementsEqual(rhs.links) { $0.link == $1.link && $0.firstSigned == $1.firstSigned }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(purchases)
        hasher.combine(firstSigned)
        for entry in links {
            hasher.combine(entry.link)
            hasher.combine(entry.firstSigned)
        }
    }
}
