/// What a load of message-log files did (`churn messages load`), per file and in total.
package struct MessageLogSummary: Sendable {
    /// One file's result.
    package struct File: Sendable {
        package var path: String
        package var sizeBytes: Int64
        package var sha256: String
        /// Events read (each stored now, or stored before).
        package var events: Int
        /// Events stored now.
        package var stored: Int
        /// Lines refused.
        package var rejected: Int
        /// Of those, lines an earlier load of identical content refused too, still unresolved: reported before.
        package var refusedBefore: Int
        /// Rejections by reason code.
        package var rejectedByReason: [String: Int]
        /// The first few rejections, for messages (`file:line: reason: detail`).
        package var sampleRejections: [String]

        /// Events stored before, by this file or another (or repeated within the file).
        package var duplicates: Int { events - stored }
    }

    package var loadRunID: Int64
    package var files: [File] = []

    package var events: Int { files.reduce(0) { $0 + $1.events } }
    package var stored: Int { files.reduce(0) { $0 + $1.stored } }
    package var duplicates: Int { files.reduce(0) { $0 + $1.duplicates } }
    package var rejected: Int { files.reduce(0) { $0 + $1.rejected } }

    package init(loadRunID: Int64) {
        self.loadRunID = loadRunID
    }
}
