/// The data-quality checks of the episodes (METRICS.md, "Context figures").
///
/// Counts from several places:
/// - from the episode builder, per subscription: `family_shared_skipped`, the three orphans, `stale_failure_notice`
///   and `late_failure_notice`, and the builder's own `duplicates_skipped` and `outside_environment` of the
///   notifications it reads;
/// - from loading, for stored data (`StoredDataset.loadQuality`): `duplicates_skipped` (copies of stored
///   notifications signed by the as-of time), `outside_environment` and `outside_bundle` (notifications a load's
///   filters left out), added to the builder's;
/// - as of the report's as-of time, when an episode is finished (``countInferences(of:)``): `inferred_expiry`,
///   `grace_end_inferred`, `grace_end_unknown` and `commitment_grace`;
/// - from the checks against Apple's subscription status (`churn repair`, `StoredDataset.loadQuality`):
///   `apple_status_agrees`, `apple_status_differs`, `apple_history_fetched` and `apple_check_failed`;
/// - from the app's message log, when the report links it to the episodes (``MessageLog/Tally``):
///   `message_event_outside_retry`.
package struct DataQualityCounts: Hashable, Sendable {
    /// Further copies of a `notificationUUID` already seen.
    package var duplicatesSkipped = 0
    /// Distinct notifications of another (or no) `data.environment`, stored or left out by a load's `--environment`
    /// or `--bundle-id`.
    package var outsideEnvironment = 0
    /// Distinct notifications of the report's environment that a load's `--bundle-id` left out.
    package var outsideBundle = 0
    /// Distinct in-environment notifications whose transaction is `FAMILY_SHARED`.
    package var familySharedSkipped = 0
    package var orphanDidRenewBillingRecovery = 0
    package var orphanExpiredBillingRetry = 0
    package var orphanGracePeriodExpired = 0
    /// `DID_FAIL_TO_RENEW` for a period already paid (its `expiresDate` before `paid_through`), opening nothing.
    package var staleFailureNotice = 0
    /// A failure notice that came after the orphan recovery it pairs with: one recovered episode.
    package var lateFailureNotice = 0
    /// Episodes ended `expired` at day 60 because their closing notification never came.
    package var inferredExpiry = 0
    /// Grace episodes whose end is `t0` plus the product's (or app's) usual grace length.
    package var graceEndInferred = 0
    /// Grace episodes whose end is neither dated nor inferable.
    package var graceEndUnknown = 0
    /// Commitment episodes whose notifications announced a grace period, which Apple does not apply to commitment
    /// plans (METRICS.md v2.2).
    package var commitmentGrace = 0
    /// Events of the app's message log that fall in no episode's retry (METRICS.md v2.2, ``MessageLog``): counted by
    /// the report, which reads the log.
    package var messageEventOutsideRetry = 0
    /// Uncertain episodes whose subscription Apple's status showed as the notifications do.
    package var appleStatusAgrees = 0
    /// Uncertain episodes whose subscription Apple's status showed otherwise (and whose history Apple did not refuse).
    package var appleStatusDiffers = 0
    /// Of those, the ones whose notification history was fetched to its end (for the next load).
    package var appleHistoryFetched = 0
    /// Checks without a usable status: not found in Apple's answer, a signed item that failed verification, or a
    /// request Apple refused; and checks whose status differs but whose history Apple refused (state `failed`).
    package var appleCheckFailed = 0
    /// Of the checks that differ, those of an episode older than Apple's notification history whose recovery a
    /// verified renewal in Apple's transaction history proves (listed when not 0; the episode itself is unchanged).
    package var appleRecoveryProven = 0

    /// Whether any episode was checked against Apple's status.
    package var hasAppleChecks: Bool {
        appleStatusAgrees + appleStatusDiffers + appleCheckFailed > 0
    }

    package init(
        duplicatesSkipped: Int = 0,
        outsideEnvironment: Int = 0,
        outsideBundle: Int = 0,
        familySharedSkipped: Int = 0,
        orphanDidRenewBillingRecovery: Int = 0,
        orphanExpiredBillingRetry: Int = 0,
        orphanGracePeriodExpired: Int = 0,
        staleFailureNotice: Int = 0,
        lateFailureNotice: Int = 0,
        inferredExpiry: Int = 0,
        graceEndInferred: Int = 0,
        graceEndUnknown: Int = 0
    ) {
        self.duplicatesSkipped = duplicatesSkipped
        self.outsideEnvironment = outsideEnvironment
        self.outsideBundle = outsideBundle
        self.familySharedSkipped = familySharedSkipped
        self.orphanDidRenewBillingRecovery = orphanDidRenewBillingRecovery
        self.orphanExpiredBillingRetry = orphanExpiredBillingRetry
        self.orphanGracePeriodExpired = orphanGracePeriodExpired
        self.staleFailureNotice = staleFailureNotice
        self.lateFailureNotice = lateFailureNotice
        self.inferredExpiry = inferredExpiry
        self.graceEndInferred = graceEndInferred
        self.graceEndUnknown = graceEndUnknown
    }

    /// Each check's name in `data_quality.csv` and its count, in the order METRICS.md lists them: the eleven checks
    /// always, `outside_bundle` after `outside_environment` when a load's `--bundle-id` left something out,
    /// `commitment_grace` when a commitment episode had a grace period, `message_event_outside_retry` when an event
    /// of the message log fell outside retry, and the four checks against Apple's status at the end once an episode
    /// was checked.
    package var checks: [(check: String, count: Int)] {
        [
            ("duplicates_skipped", duplicatesSkipped),
            ("outside_environment", outsideEnvironment),
        ]
            + (outsideBundle > 0 ? [("outside_bundle", outsideBundle)] : [])
            + [
                ("family_shared_skipped", familySharedSkipped),
                ("orphan_did_renew_billing_recovery", orphanDidRenewBillingRecovery),
                ("orphan_expired_billing_retry", orphanExpiredBillingRetry),
                ("orphan_grace_period_expired", orphanGracePeriodExpired),
                ("stale_failure_notice", staleFailureNotice),
                ("late_failure_notice", lateFailureNotice),
                ("inferred_expiry", inferredExpiry),
                ("grace_end_inferred", graceEndInferred),
                ("grace_end_unknown", graceEndUnknown),
            ]
            + (commitmentGrace > 0 ? [("commitment_grace", commitmentGrace)] : [])
            + (messageEventOutsideRetry > 0 ? [("message_event_outside_retry", messageEventOutsideRetry)] : [])
            + (hasAppleChecks
                ? [
                    ("apple_status_agrees", appleStatusAgrees), ("apple_status_differs", appleStatusDiffers),
                    ("apple_history_fetched", appleHistoryFetched), ("apple_check_failed", appleCheckFailed),
                ] : [])
            + (appleRecoveryProven > 0 ? [("apple_recovery_proven", appleRecoveryProven)] : [])
    }

    package mutating func add(_ other: DataQualityCounts) {
        duplicatesSkipped += other.duplicatesSkipped
        outsideEnvironment += other.outsideEnvironment
        outsideBundle += other.outsideBundle
        familySharedSkipped += other.familySharedSkipped
        orphanDidRenewBillingRecovery += other.orphanDidRenewBillingRecovery
        orphanExpiredBillingRetry += other.orphanExpiredBillingRetry
        orphanGracePeriodExpired += other.orphanGracePeriodExpired
        staleFailureNotice += other.staleFailureNotice
        lateFailureNotice += other.lateFailureNotice
        inferredExpiry += other.inferredExpiry
        graceEndInferred += other.graceEndInferred
        graceEndUnknown += other.graceEndUnknown
        commitmentGrace += other.commitmentGrace
        messageEventOutsideRetry += other.messageEventOutsideRetry
        appleStatusAgrees += other.appleStatusAgrees
        appleStatusDiffers += other.appleStatusDiffers
        appleHistoryFetched += other.appleHistoryFetched
        appleCheckFailed += other.appleCheckFailed
        appleRecoveryProven += other.appleRecoveryProven
    }

    /// Counts what one finished episode (``EpisodeDataset/finish()``) says of itself: `inferred_expiry`,
    /// `grace_end_inferred`, `grace_end_unknown` and `commitment_grace`.
    package mutating func countInferences(of episode: Episode) {
        if episode.endInferred { inferredExpiry += 1 }
        if episode.graceEndInferred { graceEndInferred += 1 }
        if episode.isGraceEndUnknown { graceEndUnknown += 1 }
        if episode.isCommitmentGrace { commitmentGrace += 1 }
    }
}
