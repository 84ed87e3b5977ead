import AppStoreNotifications

/// How `churn load` reads and accepts input.
package struct LoadOptions: Sendable {
    /// Signature verification and filters.
    package var policy: AcceptancePolicy
    /// The largest record (a line, or a whole JSON document) read; longer ones are quarantined.
    package var maxRecordBytes: Int = 16 << 20
    /// How many bytes of a rejected record the quarantine keeps.
    package var quarantineRawBytes: Int = 64 << 10
    /// Records decoded together, spread over the worker threads, and written in one transaction.
    package var batchSize: Int = 512
    /// Threads that decode and verify.
    package var workers: Int
    /// The command line that started the run, recorded in `load_runs.command`.
    package var command: String
    /// Whether a line whose signed payload is byte-identical to a stored notification's is decoded and verified
    /// again. False (the default) counts it as a copy of the stored notification unchecked, when that notification
    /// was checked as this load checks and passes its filters (``StoredPayloads``): the counts and every row written
    /// are the same either way.
    package var checksStoredPayloadsAgain = false

    /// The options that decide what the load accepts, as one text (`load_runs.acceptance`): the trust roots (or
    /// none verified), nested verification, the bundle id and environment filters and the largest record. Two loads
    /// with the same text accept the same inputs.
    package var acceptance: String {
        var parts = [verification]
        parts.append("bundle=" + (policy.bundleID ?? "*"))
        parts.append("environment=" + (policy.environment ?? "*"))
        parts.append("max-record-bytes=\(maxRecordBytes)")
        return parts.joined(separator: " ")
    }

    /// How ``acceptance`` says signatures are checked: `trust=<the roots' fingerprint>`, then ` nested` when the
    /// nested tokens are checked too; `no-verify` without checks.
    private var verification: String {
        guard let verifier = policy.verifier else { return "no-verify" }
        return "trust=" + verifier.trustFingerprint + (policy.verifiesNestedTokens ? " nested" : "")
    }

    /// The stored notifications of `matches` that a line byte-identical to one may be counted as a copy of without
    /// being decoded and verified: the run that stored it checked signatures as this load does (the same trust
    /// roots, and the nested tokens too when this load checks them; anything when this load checks none), and this
    /// load's `--bundle-id` and `--environment` accept it. A line refused otherwise goes through decoding and is
    /// refused as it always was.
    func acceptedUnchecked<Key>(_ matches: [Key: StoredPayloads.Match]) -> [Key: StoredPayloads.Match] {
        let filtered = matches.filter {
            policy.refusal(bundleID: $0.value.bundleID, environment: $0.value.environment) == nil
        }
        guard policy.verifier != nil else { return filtered }
        // The fingerprint ends in a serial number, so a space ends it: no other roots' text starts the same way. A
        // run that checked the nested tokens too checked more than this one does.
        let same = verification + " "
        let more = policy.verifiesNestedTokens ? nil : verification + " nested "
        return filtered.filter { entry in
            guard let stored = entry.value.acceptance else { return false }
            return stored.hasPrefix(same) || more.map { stored.hasPrefix($0) } == true
        }
    }

    package init(policy: AcceptancePolicy, workers: Int, command: String) {
        self.policy = policy
        self.workers = max(1, workers)
        self.command = command
    }
}
