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
}
