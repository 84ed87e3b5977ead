import AppStoreNotifications

/// What the loader checks on every notification besides its format.
package struct AcceptancePolicy: Sendable {
    /// Verifies signatures; nil loads without verification (`--no-verify`).
    package var verifier: JWSVerifier?
    /// Also verify the nested transaction and renewal tokens (`--verify-nested`).
    package var verifiesNestedTokens: Bool
    /// Accept only this bundle id (`--bundle-id`).
    package var bundleID: String?
    /// Accept only this environment (`--environment`).
    package var environment: String?

    package init(
        verifier: JWSVerifier?, verifiesNestedTokens: Bool = false, bundleID: String? = nil, environment: String? = nil
    ) {
        self.verifier = verifier
        self.verifiesNestedTokens = verifiesNestedTokens
        self.bundleID = bundleID
        self.environment = environment
    }

    /// Why `--bundle-id` or `--environment` refuse a notification of this bundle id and environment (the bundle id
    /// first), with the detail the quarantine records; nil when they accept it.
    func refusal(bundleID: String?, environment: String?) -> (reason: Rejection.Reason, detail: String)? {
        if let wanted = self.bundleID, bundleID != wanted {
            return (.wrongBundleID, "bundle id \(bundleID ?? "(none)") is not \(wanted)")
        }
        if let wanted = self.environment, environment != wanted {
            return (.wrongEnvironment, "environment \(environment ?? "(none)") is not \(wanted)")
        }
        return nil
    }
}
