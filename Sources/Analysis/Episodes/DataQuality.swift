/// The figures of `data_quality.csv`: one count per check.
///
/// Rows: the eleven checks of ``DataQualityCounts`` in METRICS.md's order, always (zeros included, so the file's
/// shape is stable), with `outside_bundle` when it is not 0, then `rejected_<reason>` for each quarantine reason the caller passes, by reason (UTF-8 byte
/// order).
package enum DataQuality {
    /// One check and its count.
    package struct Row: Hashable, Sendable {
        /// The check's name, such as `duplicates_skipped` or `rejected_bad_signature`.
        package var check: String
        package var count: Int

        package init(check: String, count: Int) {
            self.check = check
            self.count = count
        }
    }

    /// The rows, in the order above.
    ///
    /// - Parameters:
    ///   - counts: what the episode builder counted.
    ///   - rejections: inputs quarantined at load time, by reason (such as `bad_signature`).
    package static func rows(counts: DataQualityCounts, rejections: [String: Int] = [:]) -> [Row] {
        counts.checks.map { Row(check: $0.check, count: $0.count) }
            + rejections.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { reason, count in
                Row(check: "rejected_" + reason, count: count)
            }
    }
}
