import AppStoreNotifications

/// One episode checked against Apple's subscription status, as `subscription_checks` records it.
package struct SubscriptionCheck: Sendable, Equatable {
    /// Why the notifications leave an episode uncertain.
    package enum Reason: String, Sendable, CaseIterable {
        /// Expired at the end of the retry window because its closing notification never came.
        case inferredExpiry = "inferred_expiry"
        /// Open, with no notification of the subscription for the days asked (`--stale-days`).
        case openWithoutNews = "open_without_news"
        /// Open, in a grace period whose end is neither dated nor inferable from the product's usual length.
        case graceEndUnknown = "grace_end_unknown"
    }

    /// What the notifications made of the episode, as a subscription status would say it.
    package enum Expected: String, Sendable {
        /// Ended without recovery: Apple's status 2.
        case expired
        /// Still in its billing issue: Apple's status 3 (billing retry) or 4 (grace period).
        case billingIssue = "billing_issue"

        /// Whether Apple's status says the same.
        package func agrees(with status: OpenEnum<Status>) -> Bool {
            switch (self, status) {
            case (.expired, .known(.expired)): true
            case (.billingIssue, .known(.billingRetry)), (.billingIssue, .known(.billingGracePeriod)): true
            default: false
            }
        }
    }

    /// What came of a check.
    package enum Verdict: String, Sendable, CaseIterable {
        /// Apple's status says what the notifications say: nothing is fetched.
        case agrees
        /// Apple's status says otherwise: the subscription's notification history is fetched.
        case differs
        /// Apple's answer lists no subscription with the episode's original transaction id.
        case notFound = "not_found"
        /// A signed item of Apple's answer failed verification: nothing is trusted, nothing fetched.
        case unverified
        /// Apple refused the request (an unknown transaction id, for example).
        case refused
    }

    package var id: Int64
    package var environment: String
    package var bundleID: String
    package var originalTransactionID: String
    package var episodeSequence: Int
    /// The episode's start, Unix milliseconds.
    package var episodeStart: Int64
    package var reason: Reason
    package var expected: Expected
    /// The exports directory the history goes to, absolute.
    package var directory: String
    /// `pending`, `fetching`, `done`, or `failed` (Apple answered the history request with an error).
    package var state: String
    package var verdict: Verdict?
    /// The history range, Unix milliseconds, fixed when its fetch starts.
    package var historyStart: Int64?
    package var historyEnd: Int64?
    /// The token of the next history page; nil for the first page and after the last.
    package var paginationToken: String?
    package var pages: Int
    package var notifications: Int
    /// The history file's length after its last kept page.
    package var partBytes: Int64
    /// Where the history comes from: the notifications (into a file), or, for an episode older than the 180 days of
    /// notification history Apple keeps, the signed transactions (read for a proof of recovery).
    package var historyKind: HistoryKind = .notifications
    /// The end of the episode's retry window, t0 + W days (Unix ms): where a renewal still proves the recovery.
    package var retryWindowEnd: Int64?

    /// Where a check's history comes from (`subscription_checks.history_kind`).
    package enum HistoryKind: String, Sendable {
        /// Get Notification History by transaction id, into `repair-<id>.jsonl.gz`.
        case notifications
        /// Get Transaction History, each signed transaction verified, for a renewal within the retry window.
        case transactions
    }

    /// The history file's name: `repair-<id>.jsonl.gz`, a file of gzip history pages as `churn fetch` writes.
    package var fileName: String { "repair-\(id).jsonl.gz" }

    /// Its name while it is written, hidden from every load.
    package var partialFileName: String { "." + fileName + ".partial" }
}

/// What Apple said of one subscription: its status item, verified.
package struct AppleStatus: Sendable, Equatable {
    package var status: OpenEnum<Status>
    /// The latest transaction's `expiresDate`, Unix milliseconds.
    package var expiresDate: Int64?
    /// The renewal info's `gracePeriodExpiresDate`, Unix milliseconds.
    package var gracePeriodExpiresDate: Int64?
    /// The renewal info's `isInBillingRetryPeriod`.
    package var isInBillingRetryPeriod: Bool?

    package init(
        status: OpenEnum<Status>, expiresDate: Int64? = nil, gracePeriodExpiresDate: Int64? = nil,
        isInBillingRetryPeriod: Bool? = nil
    ) {
        self.status = status
        self.expiresDate = expiresDate
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
    }
}
