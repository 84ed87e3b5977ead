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

    /// The options that decide what the load accepts, as one text (`load_runs.acceptance`): the trust roots (or
    /// none verified), nested verification, the bundle id and environment filters and the largest record. Two loads
    /// with the same text accept the same inputs.
    package var acceptance: String {
        var parts: [String] = []
        if let verifier = policy.verifier {
            parts.append("trust=" + verifier.trustFingerprint)
            if policy.verifiesNestedTokens { parts.append("nested") }
        } else {
            parts.append("no-verify")
        }
        parts.append("bundle=" + (policy.bundleID ?? "*"))
        parts.append("environment=" + (policy.environment ?? "*"))
        parts.append("max-record-bytes=\(maxRecordBytes)")
        return parts.joined(separator: " ")
    }

    package init(policy: AcceptancePolicy, workers: Int, command: String) {
        self.policy = policy
        self.workers = max(1, workers)
        self.command = command
    }
}
