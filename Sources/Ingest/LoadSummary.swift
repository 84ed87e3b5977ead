/// What a load did, per file and in total.
package struct LoadSummary: Sendable {
    /// One input file's result.
    package struct File: Sendable {
        package var path: String
        package var sizeBytes: Int64
        package var sha256: String
        /// Notifications found (stored, duplicate or rejected).
        package var records: Int
        /// Newly stored notifications.
        package var loaded: Int
        /// Notifications of the file that an unfinished load of it (a killed attempt) stored before, from the same
        /// lines: neither new nor duplicates.
        package var resumed: Int
        /// Notifications already stored (same notificationUUID) by another file or line, or repeated within the file.
        package var duplicates: Int
        /// Inputs refused.
        package var rejected: Int
        /// Of those, inputs an earlier load of identical content refused too, still unresolved: reported before.
        package var refusedBefore = 0
        /// Lines byte-identical to stored notifications that were checked as this load checks: counted as copies
        /// (among ``duplicates``, or ``resumed``) without being decoded or verified again.
        package var notVerifiedAgain = 0
        /// Rejections by reason code.
        package var rejectedByReason: [String: Int]
        /// The run that loaded identical content before, if any.
        package var previousRunWithSameContent: Int64?
        /// The first few rejections, for messages (`file:line: reason`).
        package var sampleRejections: [String]
    }

    package var loadRunID: Int64
    package var verified: Bool
    package var files: [File] = []
    package var seconds: Double = 0

    package var records: Int { files.reduce(0) { $0 + $1.records } }
    package var loaded: Int { files.reduce(0) { $0 + $1.loaded } }
    package var resumed: Int { files.reduce(0) { $0 + $1.resumed } }
    package var duplicates: Int { files.reduce(0) { $0 + $1.duplicates } }
    package var rejected: Int { files.reduce(0) { $0 + $1.rejected } }
    package var notVerifiedAgain: Int { files.reduce(0) { $0 + $1.notVerifiedAgain } }
    /// Refused inputs that no earlier load of identical content refused: what this load newly found wrong.
    package var newlyRejected: Int { files.reduce(0) { $0 + $1.rejected - $1.refusedBefore } }
    package var bytes: Int64 { files.reduce(0) { $0 + $1.sizeBytes } }

    package var rejectedByReason: [String: Int] {
        files.reduce(into: [:]) { total, file in
            for (reason, count) in file.rejectedByReason { total[reason, default: 0] += count }
        }
    }
}
