import Foundation
import TestSupport
import Testing

/// `churn query` against a read-only connection, as on a replica (here `default_transaction_read_only`, which makes
/// every transaction of the session read-only as a hot standby does): a current schema is only read, and the
/// questions answer from the episodes the last analysis stored, with a warning (once every question failed on
/// "CREATE TABLE IF NOT … read-only transaction").
@Suite struct ReadOnlyConnectionTests {
    @Test func questionsAnswerFromTheStoredEpisodesOnAReadOnlyConnection() throws {
        let simulated = try SimulatedExport("readonly", subscribers: 40, seed: 12)
        defer { simulated.remove() }
        let schema = try simulated.loadedUnverified(into: "readonly")
        let database = ["--database-url", schema.url]
        let writable = try ChurnCommand.run(["query", "recovery-rate", "--format", "csv"] + database)
        #expect(writable.status == 0, "\(writable.stderr)")

        // The same schema through a connection whose every transaction is read-only.
        let replicaURL = schema.url.replacingOccurrences(
            of: "options='", with: "options='-c default_transaction_read_only=on ")
        #expect(replicaURL != schema.url)
        let readOnly = ["--database-url", replicaURL]
        let replica = try ChurnCommand.run(["query", "recovery-rate", "--format", "csv"] + readOnly)
        #expect(replica.status == 0, "\(replica.stderr)")
        #expect(replica.stdout == writable.stdout)
        #expect(replica.stderr.contains("read-only connection (a replica?): answering from the episodes"))
        for question in ["billing-failures", "data-quality", "open-episodes"] {
            let answer = try ChurnCommand.run(["query", question] + readOnly)
            #expect(answer.status == 0, "\(question): \(answer.stderr)")
        }
        // The returns need temporary tables: refused with where to go instead.
        let returns = try ChurnCommand.run(["query", "returns"] + readOnly)
        #expect(returns.status == 1)
        #expect(returns.stderr.contains("point --database-url at the primary"), "\(returns.stderr)")
    }
}
