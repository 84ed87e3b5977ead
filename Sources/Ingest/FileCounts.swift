/// What a file's batches did, added up as they are written (``BatchWriter``), for its `source_files` row and its
/// summary (``FileBookkeeping``).
struct FileCounts {
    var records = 0
    /// Rows PostgreSQL accepted (stored now or already stored).
    var staged = 0
    /// Notifications this file added (``BatchPlan/added``): rows it stored that replace no stored copy.
    var inserted = 0
    /// Rows an unfinished load of this file stored before, from the same lines (``BatchPlan/resumed``).
    var resumed = 0
    var rejected = 0
    var rejectedByReason: [String: Int] = [:]
    var samples: [String] = []
    /// Lines counted as copies of stored notifications without being decoded or verified (``StoredPayloads``).
    var notVerifiedAgain = 0
}
