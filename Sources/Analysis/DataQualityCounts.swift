/// The data-quality checks the episode builder counts (METRICS.md, "Context figures").
package struct DataQualityCounts: Hashable, Sendable {
    /// Further copies of a `notificationUUID` already seen.
    package var duplicatesSkipped = 0
    /// Distinct notifications of another (or no) `data.environment`.
    package var outsideEnvironment = 0
    /// Distinct in-environment notifications whose transaction is `FAMILY_SHARED`.
    package var familySharedSkipped = 0
    /// Open episodes that started more than 61 days before the as-of time.
    package var unresolvedOpenEpisodes = 0
    package var orphanDidRenewBillingRecovery = 0
    package var orphanExpiredBillingRetry = 0
    package var orphanGracePeriodExpired = 0

    package init(
        duplicatesSkipped: Int = 0,
        outsideEnvironment: Int = 0,
        familySharedSkipped: Int = 0,
        unresolvedOpenEpisodes: Int = 0,
        orphanDidRenewBillingRecovery: Int = 0,
        orphanExpiredBillingRetry: Int = 0,
        orphanGracePeriodExpired: Int = 0
    ) {
        self.duplicatesSkipped = duplicatesSkipped
        self.outsideEnvironment = outsideEnvironment
        self.familySharedSkipped = familySharedSkipped
        self.unresolvedOpenEpisodes = unresolvedOpenEpisodes
        self.orphanDidRenewBillingRecovery = orphanDidRenewBillingRecovery
        self.orphanExpiredBillingRetry = orphanExpiredBillingRetry
        self.orphanGracePeriodExpired = orphanGracePeriodExpired
    }

    /// Each check's name in `data_quality.csv` and its count, in the order METRICS.md lists them.
    package var checks: [(check: String, count: Int)] {
        [
            ("duplicates_skipped", duplicatesSkipped),
            ("outside_environment", outsideEnvironment),
            ("family_shared_skipped", familySharedSkipped),
            ("unresolved_open_episodes", unresolvedOpenEpisodes),
            ("orphan_did_renew_billing_recovery", orphanDidRenewBillingRecovery),
            ("orphan_expired_billing_retry", orphanExpiredBillingRetry),
            ("orphan_grace_period_expired", orphanGracePeriodExpired),
        ]
    }

    package mutating func add(_ other: DataQualityCounts) {
        duplicatesSkipped += other.duplicatesSkipped
        outsideEnvironment += other.outsideEnvironment
        familySharedSkipped += other.familySharedSkipped
        unresolvedOpenEpisodes += other.unresolvedOpenEpisodes
        orphanDidRenewBillingRecovery += other.orphanDidRenewBillingRecovery
        orphanExpiredBillingRetry += other.orphanExpiredBillingRetry
        orphanGracePeriodExpired += other.orphanGracePeriodExpired
    }
}
