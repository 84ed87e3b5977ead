import AppStoreNotifications
import Foundation
import Ingest
import PGClient
import TestPKI
import TestSupport
import Testing

extension SignedStories {
    /// Loads `lines` as the file `name` in `directory` into `connection`'s schema, verified against the stories'
    /// test root, and expects no rejection.
    @discardableResult
    func load(_ lines: [String], as name: String, in directory: URL, into connection: PGConnection) async throws
        -> LoadSummary
    {
        let path = directory.appendingPathComponent(name)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: path)
        let options = LoadOptions(
            policy: AcceptancePolicy(verifier: JWSVerifier(trustRoots: [root.root])), workers: 2, command: "test"
        )
        let summary = try await Loader(connection: connection, options: options, logger: .test).load([path.path])
        #expect(summary.rejected == 0)
        return summary
    }
}
