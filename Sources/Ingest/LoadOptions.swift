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

    package init(policy: AcceptancePolicy, workers: Int, command: String) {
        self.policy = policy
        self.workers = max(1, workers)
        self.command = command
    }
}
