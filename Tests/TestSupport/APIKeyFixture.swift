import Crypto
import Foundation

/// An In-App Purchase key as App Store Connect hands it out (a PKCS #8 PEM P-256 key, `AuthKey_<key id>.p8`) with
/// made-up ids, for the tests of the App Store Server API client and its mock.
package struct APIKeyFixture: Sendable {
    package let privateKey: P256.Signing.PrivateKey
    package let keyID: String
    package let issuerID: String
    package let bundleID: String

    package init(
        keyID: String = "2X9R4HXF34", issuerID: String = "57246542-96fe-1a63-e053-0824d011072a",
        bundleID: String = "com.example"
    ) {
        privateKey = P256.Signing.PrivateKey()
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// The `.p8` text: `-----BEGIN PRIVATE KEY-----`, base64 PKCS #8, `-----END PRIVATE KEY-----`.
    package var pem: String { privateKey.pemRepresentation }

    /// The base64 lines between the PEM markers: what must never show in a log.
    package var pemBodyLines: [String] {
        pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    /// Writes `AuthKey_<key id>.p8` into `directory` with `mode`.
    /// - Returns: its path.
    package func writeKeyFile(in directory: URL, mode: Int = 0o600) throws -> String {
        let path = directory.appendingPathComponent("AuthKey_\(keyID).p8").path
        try Data(pem.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// A mock configuration that accepts this key's tokens and serves `notifications`.
    package func mock(
        _ notifications: [HistoryFixture.Notification], pageSize: Int = 5, faults: [MockAppStoreServer.Fault] = [],
        statuses: [String: MockAppStoreServer.StatusItem] = [:]
    ) -> MockAppStoreServer.Configuration {
        var configuration = MockAppStoreServer.Configuration(
            keyID: keyID, issuerID: issuerID, bundleID: bundleID, publicKey: privateKey.publicKey,
            notifications: notifications, pageSize: pageSize, faults: faults
        )
        configuration.statuses = statuses
        return configuration
    }
}
